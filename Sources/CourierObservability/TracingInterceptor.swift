import Courier
import Foundation
import HTTPTypes
import Instrumentation
import OTelSemanticConventions
import Tracing

/// Joins each call to the caller's trace: one client span per call, named by method (`HTTP` for a method the
/// conventions do not list), and a child span for every request the call hands to the transport (each retry and
/// each redirect hop), following OpenTelemetry's HTTP client conventions: `http.request.method` (`_OTHER` with
/// `http.request.method_original` for an unlisted method), `server.address`, `server.port`, `url.scheme`,
/// `url.full` with secrets redacted, `http.response.status_code`, `error.type` (the status code of a 4xx or 5xx
/// answer, else the `CourierError` kind) with the span's status set to error, and `http.request.resend_count` on
/// every exchange after the first. The trace context of each child span
/// goes into that request's header fields through the tracer's instrument (W3C `traceparent` with an OpenTelemetry
/// tracer).
///
/// ```swift
/// let client = APIClient(baseURL: api) { $0.interceptors = [TracingInterceptor()] + $0.interceptors }
/// ```
///
/// Put it first, so that its span covers retries, the cache and authentication. Without it nothing is traced and
/// nothing is spent.
public struct TracingInterceptor: Interceptor {
  private let tracer: any Tracer

  /// An interceptor reporting to `tracer` (the tracer bootstrapped in `InstrumentationSystem` by default).
  public init(tracer: any Tracer = InstrumentationSystem.tracer) {
    self.tracer = tracer
  }

  /// Runs the call in a client span, and every exchange with the transport in a child span.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    let parent = ServiceContext.current ?? .topLevel
    let span = tracer.startSpan(Self.spanName(request), context: parent, ofKind: .client)
    Self.describe(request, in: span)
    var context = context
    let tracer = self.tracer
    let callContext = span.context
    let resends = ResendCounter()
    context.observeExchanges { request in
      let attempt = tracer.startSpan(Self.spanName(request), context: callContext, ofKind: .client)
      Self.describe(request, in: attempt)
      let resend = resends.next()
      if resend > 0 { attempt.attributes[OTelAttribute.http.request.resendCount] = resend }
      tracer.inject(attempt.context, into: &request.headerFields, using: HTTPFieldsInjector())
      return { result in
        Self.finish(attempt, with: result)
      }
    }
    do {
      let (response, responseBody) = try await ServiceContext.withValue(callContext) {
        try await next(request, body, context)
      }
      Self.finish(span, with: .success(response))
      return (response, responseBody)
    } catch {
      Self.finish(span, with: .failure(error))
      throw error
    }
  }

  /// `{method}`, or `HTTP` for a method the conventions do not list.
  private static func spanName(_ request: HTTPRequest) -> String {
    let method = HTTPClientAttributes(request).method
    return method == "_OTHER" ? "HTTP" : method
  }

  private static func describe(_ request: HTTPRequest, in span: any Span) {
    let attributes = HTTPClientAttributes(request)
    span.attributes[OTelAttribute.http.request.method] = attributes.method
    if let original = attributes.originalMethod {
      span.attributes[OTelAttribute.http.request.methodOriginal] = original
    }
    span.attributes[OTelAttribute.server.address] = attributes.address
    span.attributes[OTelAttribute.server.port] = attributes.port
    span.attributes[OTelAttribute.url.scheme] = attributes.scheme
    span.attributes[OTelAttribute.url.full] = request.redactedURL
  }

  private static func finish(_ span: any Span, with result: Result<HTTPResponse, any Error>) {
    switch result {
    case .success(let response):
      span.attributes[OTelAttribute.http.response.statusCode] = response.status.code
      if let type = HTTPClientAttributes.errorType(status: response.status, error: nil) {
        span.attributes[OTelAttribute.error.type] = type
        span.setStatus(SpanStatus(code: .error))
      }
    case .failure(let error):
      let status = (error as? CourierError)?.status
      if let status { span.attributes[OTelAttribute.http.response.statusCode] = status.code }
      span.attributes[OTelAttribute.error.type] = HTTPClientAttributes.errorType(status: status, error: error)
      span.recordError(error)
      span.setStatus(SpanStatus(code: .error))
    }
    span.end()
  }
}

/// Counts a call's exchanges with the transport: 0 for the first, then 1, 2, …
private final class ResendCounter: Sendable {
  private let count = Locked(0)
  func next() -> Int {
    count.withLock { count in
      defer { count += 1 }; return count
    }
  }
}

/// Writes trace context into request header fields.
struct HTTPFieldsInjector: Injector {
  func inject(_ value: String, forKey key: String, into fields: inout HTTPFields) {
    guard let name = HTTPField.Name(key) else { return }
    fields[name] = value
  }
}
