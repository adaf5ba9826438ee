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
/// and `✕ GET … failed after 12 ms: …` at ``errorLevel`` when the attempt throws. The levels, the body limit and
/// what is redacted are properties of the interceptor, each with a default; change them in the closure of
/// ``init(logger:_:)``:
///
/// ```swift
/// let logging = LoggingInterceptor(logger: logger) {
///   $0.requestLevel = .debug
///   $0.curlLevel = nil  // never log cURL commands
///   $0.redactedHeaders.insert(HTTPField.Name("X-Session")!)
///   $0.redactedBodyFields.formUnion(["ssn", "cardNumber"])
/// }
/// ```
///
/// Redaction replaces a value with ``placeholder`` and keeps the name, so a log still shows that a token was sent
/// without showing the token. For `Authorization` and `Proxy-Authorization` the scheme stays visible
/// (`Bearer <redacted>`).
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
/// and form bodies have the values of ``redactedBodyFields`` hidden at any depth; a body that is not UTF-8 is shown
/// as `<binary, N bytes>`. An endpoint with ``Endpoint/logging(_:)`` set to `false` is not logged at all.
public struct LoggingInterceptor: Interceptor {
  /// Where the lines go.
  public let logger: Logger
  /// The level of the `→ GET https://…` line that starts each attempt; `.info` by default.
  public var requestLevel: Logger.Level = .info
  /// The level of the `← 200 OK …` line that ends each attempt; `.info` by default.
  public var responseLevel: Logger.Level = .info
  /// The level of the header and body lines; `.debug` by default.
  public var bodyLevel: Logger.Level = .debug
  /// The level of the cURL command that reproduces the request; `.debug` by default, `nil` to never log it.
  public var curlLevel: Logger.Level? = .debug
  /// The level of the `✕ … failed` line for an attempt that threw; `.error` by default.
  public var errorLevel: Logger.Level = .error
  /// The most bytes of a body that are logged (2 048 by default); the rest is cut with a note `… (N more bytes)`.
  public var maxBodyBytes: Int = 2_048
  /// Headers whose values are never logged, compared case-insensitively; ``defaultRedactedHeaders`` by default.
  public var redactedHeaders: Set<HTTPField.Name> = LoggingInterceptor.defaultRedactedHeaders {
    didSet { updateRedactor() }
  }
  /// Query parameters whose values are never logged, compared case-insensitively; ``defaultRedactedKeys`` by
  /// default. A key also matches when it names the field inside brackets, so `password` hides `user[password]=…`.
  public var redactedQueryKeys: Set<String> = LoggingInterceptor.defaultRedactedKeys {
    didSet { updateRedactor() }
  }
  /// JSON fields (at any depth, in objects and arrays) and form fields whose values are never logged, compared
  /// case-insensitively; ``defaultRedactedKeys`` by default.
  public var redactedBodyFields: Set<String> = LoggingInterceptor.defaultRedactedKeys {
    didSet { updateRedactor() }
  }
  /// What a hidden value is replaced with; `"<redacted>"` by default.
  public var placeholder: String = "<redacted>" {
    didSet { updateRedactor() }
  }
  /// The redaction rules above, prepared for use; kept in step with them.
  private(set) var redactor = LogRedactor()

  /// Creates an interceptor that logs to `logger`, adjusting the defaults in `configure`.
  ///
  /// ```swift
  /// let logging = LoggingInterceptor(logger: Logger(label: "com.example.api")) {
  ///   $0.requestLevel = .debug
  ///   $0.redactedBodyFields.insert("pin")
  /// }
  /// ```
  public init(logger: Logger, _ configure: (inout LoggingInterceptor) -> Void = { _ in }) {
    self.logger = logger
    configure(&self)
    updateRedactor()
  }

  /// Renders bodies for the log lines with the redaction rules and the body limit.
  var bodies: LogBodyRendering { LogBodyRendering(redactor: redactor, maxBytes: maxBodyBytes) }
  /// Renders cURL commands with the redaction rules.
  var curl: CURLRendering { CURLRendering(redactor: redactor) }

  private mutating func updateRedactor() {
    redactor = LogRedactor(
      headers: redactedHeaders, queryKeys: redactedQueryKeys, bodyFields: redactedBodyFields,
      placeholder: placeholder)
  }

  /// Logs the request, hands it on, and logs the response or the failure.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    guard context[LoggedKey.self] else { return try await next(request, body, context) }
    guard logsSuccess else {
      // Nothing to write unless the call fails: no metadata, request line or timing work on the way.
      let started = ContinuousClock.now
      do {
        return try await next(request, body, context)
      } catch {
        if logger.logLevel <= errorLevel {
          let line = LogRequestLine(method: request.method.rawValue, url: redactor.url(of: request))
          logFailure(
            error, request: request, line: line, milliseconds: Self.milliseconds(since: started),
            logger: callLogger(for: context))
        }
        throw error
      }
    }
    let logger = callLogger(for: context)
    let line = LogRequestLine(method: request.method.rawValue, url: redactor.url(of: request))

    logRequest(request, body: body, line: line, context: context, logger: logger)
    let started = ContinuousClock.now
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

  /// Whether ``logger`` writes anything for a call that succeeds: its level reaches one of the request, response,
  /// body or curl levels.
  var logsSuccess: Bool {
    let level = logger.logLevel
    return level <= requestLevel || level <= responseLevel || level <= bodyLevel
      || curlLevel.map { level <= $0 } == true
  }

  /// ``logger`` with the call's ID and attempt as metadata.
  private func callLogger(for context: CallContext) -> Logger {
    var logger = self.logger
    logger[metadataKey: "callID"] = "\(context.callID)"
    logger[metadataKey: "attempt"] = "\(context.attempt)"
    return logger
  }

  static func milliseconds(since start: ContinuousClock.Instant) -> Int {
    let elapsed = start.duration(to: .now).components
    return Int((Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15).rounded())
  }
}
