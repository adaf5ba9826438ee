import Foundation
import HTTPTypes

/// The one error type every Courier call throws.
///
/// A `CourierError` says what went wrong (``kind``), in words a developer can act on (``detail``), and keeps
/// everything that was known when it happened: the request that was sent, the response head, the response body
/// bytes, the server's decoded error body, and the underlying error. Nothing is dropped, so a failed call can
/// always be logged or inspected in full.
///
/// ```swift
/// do {
///   let user = try await client.value(.get("/users/me") as Endpoint<User>)
/// } catch let error as CourierError where error.status == .unauthorized {
///   showLogin()
/// } catch let error as CourierError {
///   showAlert(error.userMessage)
/// }
/// ```
public struct CourierError: Error, Sendable {
  /// What kind of failure this is.
  public internal(set) var kind: Kind
  /// A developer-facing explanation of what was wrong, e.g. `Header "X-Id" contains CR or LF`.
  public internal(set) var detail: String
  /// The request as it was (or would have been) sent, when one was built.
  public internal(set) var request: HTTPRequest?
  /// The response head, when a response arrived.
  public internal(set) var response: HTTPResponse?
  /// The first bytes of the response body (at most 64 KiB), when a response body arrived; kept when decoding failed.
  /// ``bodyLength`` says how long the whole body was.
  public internal(set) var body: Data? {
    didSet {
      // Assigned here, `body` does not call its observer again.
      bodyLength = body?.count
      if let body, body.count > Self.keptBodyBytes { self.body = Data(body.prefix(Self.keptBodyBytes)) }
    }
  }
  /// How many bytes the response body had, of which ``body`` keeps the first 64 KiB.
  public internal(set) var bodyLength: Int?

  /// The most body bytes an error keeps.
  static let keptBodyBytes = 64 << 10

  /// Keeps the first bytes of the body the initializer was given (whether or not `body`'s observer runs).
  private mutating func keepPrefix() {
    let length = body?.count
    if let body, body.count > Self.keptBodyBytes { self.body = Data(body.prefix(Self.keptBodyBytes)) }
    bodyLength = length
  }
  /// The server's error body, decoded with the client's ``APIClient/Configuration/serverErrorType``.
  public internal(set) var serverError: (any ServerErrorResponse)?
  /// The error that caused this one (a `URLError`, a `DecodingError`, an `EncodingError`, ...).
  public internal(set) var underlyingError: (any Error)?
  /// The coding path of an encoding or decoding failure, in query/JSON form: `items[3].price`.
  public internal(set) var codingPath: String?
  /// The endpoint's custom message for this response status, set with ``Endpoint/message(for:_:)``.
  public internal(set) var customMessage: String?
  /// The messages of the client the call was made with, for ``userMessage``.
  var messages: UserMessages?

  /// Creates an error. Courier creates these for you; the initializer is public for test doubles and transports.
  public init(
    _ kind: Kind,
    _ detail: String,
    request: HTTPRequest? = nil,
    response: HTTPResponse? = nil,
    body: Data? = nil,
    underlyingError: (any Error)? = nil
  ) {
    self.kind = kind
    self.detail = detail
    self.request = request
    self.response = response
    self.body = body
    self.underlyingError = underlyingError
    keepPrefix()
  }

  /// The response status, when a response arrived.
  public var status: HTTPResponse.Status? { response?.status }

  /// Returns the decoded server error as `T`, when the server sent one of that type.
  public func serverError<T: ServerErrorResponse>(as type: T.Type = T.self) -> T? {
    serverError as? T
  }
}

extension CourierError {
  /// True for failures that may succeed when tried again: timeouts, failed connections, connections lost during an
  /// idempotent request (a lost `POST` may have reached the server), and the statuses 408, 429, 500, 502, 503 and
  /// 504. Cancellation is never retryable.
  public var isRetryable: Bool {
    switch kind {
    case .timeout, .noConnection:
      return true
    case .connectionLost:
      return request?.method.isIdempotent ?? true
    case .unacceptableStatus:
      guard let code = status?.code else { return false }
      return [408, 429, 500, 502, 503, 504].contains(code)
    default:
      return false
    }
  }

  /// True when the request timed out.
  public var isTimeout: Bool { kind == .timeout }
  /// True when the calling task, or the request itself, was cancelled.
  public var isCancellation: Bool { kind == .cancelled }
  /// True when the host could not be reached at all (offline, DNS failure, connection refused).
  public var isNoConnection: Bool { kind == .noConnection }
  /// True when the credentials were rejected for good: a failed token refresh, or a 401 the auth interceptor could
  /// not cure.
  public var isUnauthorized: Bool { kind == .unauthorized || status?.code == 401 }
}

extension CourierError: CustomStringConvertible, CustomDebugStringConvertible {
  /// Hides secrets in the texts an error renders, as ``LoggingInterceptor`` does in logs: the values of
  /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and `X-API-Key`, of query keys and JSON or form
  /// fields such as `password`, `token`, `access_token`, `refresh_token`, `api_key` and `secret`, and user info in
  /// URLs.
  static let redactor = LogRedactor()

  /// `text` with every secret of the request (header values, query values) replaced by the placeholder.
  func redacted(_ text: String) -> String {
    guard let request else { return text }
    return Self.redactor.scrub(text, removing: Self.redactor.secrets(in: request))
  }

  /// A one-line developer description: kind, request line, status and detail, with secrets redacted.
  public var description: String {
    var parts = ["CourierError.\(kind)"]
    if let request { parts.append("\(request.method) \(Self.redactor.url(of: request))") }
    if let status { parts.append("→ \(status.code) \(status.phrase)") }
    parts.append(detail)
    return redacted(parts.joined(separator: " "))
  }

  /// The description plus the body (truncated, secret fields redacted) and the underlying error, with secrets
  /// redacted.
  public var debugDescription: String {
    var text = description
    if let codingPath { text += "\n  coding path: \(codingPath)" }
    if let body, !body.isEmpty {
      let preview = Self.redactor.body(
        String(decoding: body.prefix(512), as: UTF8.self), contentType: response?.headerFields[.contentType],
        isComplete: body.count <= 512)
      text += "\n  body (\(bodyLength ?? body.count) bytes): \(preview)"
    }
    if let underlyingError { text += "\n  underlying: \(String(reflecting: underlyingError))" }
    return redacted(text)
  }
}

extension CourierError: LocalizedError {
  /// The user-facing message (``userMessage``), so `error.localizedDescription` reads well in an alert.
  public var errorDescription: String? { userMessage }
}

extension HTTPRequest.Method {
  /// The methods whose request, sent twice, has the effect of sending it once (RFC 9110 §9.2.2); `RetryInterceptor`'s
  /// default `idempotentMethods` is the same list (a test holds them equal).
  static let idempotent: Set<HTTPRequest.Method> = [.get, .head, .options, .trace, .put, .delete]

  /// Whether sending the request twice has the effect of sending it once.
  var isIdempotent: Bool { Self.idempotent.contains(self) }
}
