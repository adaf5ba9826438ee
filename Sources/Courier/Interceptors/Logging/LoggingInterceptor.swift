import Foundation
import HTTPTypes
import Logging

/// Logs every attempt of every call to a swift-log `Logger`, with secrets redacted.
///
/// For each attempt it logs, with the call ID and attempt number as metadata:
///
/// ```text
/// info:  → GET https://api.example.com/v1/search?q=shoes&token=<redacted> (call 7, attempt 1)
/// debug: → headers
///          Accept: application/json
///          Authorization: Bearer <redacted>
/// debug: curl -X GET 'https://api.example.com/v1/search?q=shoes&token=<redacted>' -H 'Accept: application/json' …
/// info:  ← 200 OK GET https://api.example.com/v1/search?q=shoes&token=<redacted> 84 ms, 1532 bytes
/// debug: ← body (1532 bytes): {"results":[…]}
/// ```
///
/// and `✕ GET … failed after 12 ms: …` at ``Configuration-swift.struct/errorLevel`` when the attempt throws. The
/// levels, the body limit and what is redacted are set in ``Configuration-swift.struct``.
///
/// Place it last in ``APIClient/Configuration/interceptors``, closest to the transport, so it logs each attempt
/// exactly as it is sent, after authentication and retries have shaped it:
///
/// ```swift
/// let client = APIClient(baseURL: baseURL) {
///   $0.interceptors = [auth, retry, LoggingInterceptor(logger: Logger(label: "api"))]
/// }
/// ```
///
/// Bodies are logged only when they are buffered in memory and the endpoint allows it (``Endpoint/logsBodies(_:)``);
/// a streamed body is shown as `<stream, N bytes>` and never read, so an upload or download is not disturbed. JSON
/// and form bodies have the values of ``Configuration-swift.struct/redactedBodyFields`` hidden at any depth; a body
/// that is not UTF-8 is shown as `<binary, N bytes>`. An endpoint with ``Endpoint/logging(_:)`` set to `false` is
/// not logged at all.
public struct LoggingInterceptor: Interceptor {
  /// Where the lines go.
  public let logger: Logger
  /// The levels, limits and redaction rules in use.
  public let configuration: Configuration
  let redactor: LogRedactor
  let bodies: LogBodyRendering
  let curl: CURLRendering

  /// Creates an interceptor that logs to `logger`.
  ///
  /// ```swift
  /// let logging = LoggingInterceptor(logger: Logger(label: "com.example.api"))
  /// ```
  public init(logger: Logger, configuration: Configuration = .init()) {
    self.logger = logger
    self.configuration = configuration
    redactor = LogRedactor(configuration)
    bodies = LogBodyRendering(redactor: redactor, maxBytes: configuration.maxBodyBytes)
    curl = CURLRendering(redactor: redactor)
  }

  /// Creates an interceptor that logs to `logger`, adjusting the default configuration.
  ///
  /// ```swift
  /// let logging = LoggingInterceptor(logger: logger) {
  ///   $0.requestLevel = .debug
  ///   $0.redactedBodyFields.insert("pin")
  /// }
  /// ```
  public init(logger: Logger, _ configure: (inout Configuration) -> Void) {
    var configuration = Configuration()
    configure(&configuration)
    self.init(logger: logger, configuration: configuration)
  }

  /// Logs the request, hands it on, and logs the response or the failure.
  public func intercept(
    _ request: HTTPRequest,
    body: HTTPBody?,
    context: RequestContext,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    guard context[LoggedKey.self] else { return try await next(request, body, context) }
    var logger = self.logger
    logger[metadataKey: "callID"] = "\(context.callID)"
    logger[metadataKey: "attempt"] = "\(context.attempt)"
    let line = LogRequestLine(method: request.method.rawValue, url: redactor.url(of: request))

    logRequest(request, body: body, line: line, context: context, logger: logger)
    let started = Uptime.now
    do {
      let (response, responseBody) = try await next(request, body, context)
      let milliseconds = Self.milliseconds(since: started)
      logResponse(
        response, body: responseBody, line: line, milliseconds: milliseconds, context: context, logger: logger)
      return (response, responseBody)
    } catch {
      logFailure(error, request: request, line: line, milliseconds: Self.milliseconds(since: started), logger: logger)
      throw error
    }
  }

  static func milliseconds(since start: Uptime) -> Int {
    Int((max(start.elapsed(), 0) * 1000).rounded())
  }
}
