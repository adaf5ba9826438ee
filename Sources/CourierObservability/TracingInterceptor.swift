import Courier
import Foundation
import HTTPTypes
import Instrumentation
import Tracing

/// Joins each call to the caller's trace: one client span per call, named by method, and a child span for every
/// request the call hands to the transport (each retry and each redirect hop), following OpenTelemetry's HTTP client
/// conventions (`http.request.method`, `server.address`, `server.port`, `url.full` with secrets redacted,
/// `http.response.status_code`, `error.type`, `http.request.resend_count`). The trace context of each child span
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
    body: HTTPBody?,
    context: RequestContext,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let parent = ServiceContext.current ?? .topLevel
    let span = tracer.startSpan(request.method.rawValue, context: parent, ofKind: .client)
    Self.describe(request, in: span)
    var context = context
    let tracer = self.tracer
    let callContext = span.context
    let resends = ResendCounter()
    context.observeExchanges { request in
      let attempt = tracer.startSpan(request.method.rawValue, context: callContext, ofKind: .client)
      Self.describe(request, in: attempt)
      attempt.attributes["http.request.resend_count"] = resends.next()
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

  private static func describe(_ request: HTTPRequest, in span: any Span) {
    span.attributes["http.request.method"] = request.method.rawValue
    if let url = request.url {
      span.attributes["server.address"] = url.host ?? ""
      span.attributes["server.port"] = url.port ?? (url.scheme == "https" ? 443 : 80)
    }
    span.attributes["url.full"] = request.redactedURL
  }

  private static func finish(_ span: any Span, with result: Result<HTTPResponse, any Error>) {
    switch result {
    case .success(let response):
      span.attributes["http.response.status_code"] = response.status.code
      if response.status.code >= 400 {
        span.attributes["error.type"] = "\(response.status.code)"
        span.setStatus(SpanStatus(code: .error))
      }
    case .failure(let error):
      let courierError = error as? CourierError
      if let status = courierError?.status { span.attributes["http.response.status_code"] = status.code }
      span.attributes["error.type"] = courierError.map { "\($0.kind)" } ?? String(describing: type(of: error))
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
