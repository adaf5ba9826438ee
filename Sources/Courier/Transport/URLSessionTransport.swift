import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over `URLSession`, on Apple platforms and on Linux (FoundationNetworking, built on libcurl).
///
/// Each transport owns its session unless you pass one in. The default configuration turns off `URLCache`
/// (Courier does its own HTTP caching on every platform), and the session hands every redirect back as the response,
/// so that Courier follows it by its own rules (see ``RedirectPolicy``); a session passed to ``init(session:)``
/// follows redirects as its own delegate says. Cookies are left as URLSession does them.
///
/// Every call with a response limit (``APIClient/Configuration/maxResponseBytes``, so every ``APIClient/send(_:)``),
/// streamed and file bodies, upload progress and streamed responses
/// (``APIClient/stream(_:)``, downloads) use tasks whose callbacks a per-task delegate receives, so that a body over
/// the limit ends the transfer as soon as it passes it rather than once it is all in memory; only a transport's
/// caller that sets no limit gets plain data tasks (on Apple platforms; on Linux every call takes the delegate).
/// The session's delegate dispatches the callbacks (FoundationNetworking on Linux ignores
/// `URLSessionTask.delegate`): a file body is uploaded from its file, any other streamed body is first written to
/// a temporary file (URLSession then sends its `Content-Length`; Courier never sets one beside a body stream), and
/// the response body arrives chunk by chunk as the server sends it; a body of at most 1 MiB by its `Content-Length`
/// that the caller does not read as it arrives is handed on whole, as the AsyncHTTPClient transport does (on Linux
/// the session's delegate runs on a serial dispatch queue rather than an `OperationQueue`, which costs more than
/// the callbacks it runs). URLSession cannot pause a running transfer on
/// Linux, so a consumer slower than the network lets received chunks queue in memory; the AsyncHTTPClient
/// transport applies back-pressure instead. A session passed to ``init(session:)`` has no Courier delegate: its
/// bodies are sent and received whole.
///
/// A background session (a configuration with an `identifier`) is refused, call by call, with
/// ``CourierError/Kind-swift.struct/invalidRequest``: URLSession follows redirects there itself without asking its
/// delegate, so Courier's ``RedirectPolicy`` could not be kept.
///
/// ```swift
/// let client = APIClient(baseURL: url) { $0.transport = URLSessionTransport() }
/// ```
public final class URLSessionTransport: HTTPTransport, ServerTrustChecking {
  /// The session requests are sent with.
  public let session: URLSession
  private let ownsSession: Bool
  /// The identifier of the session's background configuration, if it has one (read once: `configuration` copies).
  private let backgroundIdentifier: String?
  /// Receives the callbacks of streaming tasks; `nil` for a session created elsewhere.
  private let delegate: SessionDelegate?
  /// Where requests that must not be sent twice go on Linux, one connection each (see ``send(_:body:options:)``).
  private let unrepeatable: (session: URLSession, delegate: SessionDelegate)?

  /// Creates a transport with its own session.
  public convenience init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration()) {
    self.init(configuration: configuration, checkingTrustWith: nil)
  }

  /// Creates a transport with its own session that trusts servers by `serverTrust`: your own roots (a private CA),
  /// with or without the system's, and public-key pins by host.
  ///
  /// On Apple platforms the session's delegate answers each server-trust challenge: it evaluates the server's chain
  /// for the host against the policy's roots (`SecTrustEvaluateWithError`), then looks for a pinned key in the
  /// evaluated chain, for every request the transport sends. A server that fails either check fails the call with a
  /// ``CourierError/Kind-swift.struct/tls`` error naming the host and the check.
  ///
  /// ```swift
  /// let transport = try URLSessionTransport(
  ///   serverTrust: .system.pinning("api.example.com", spkiSHA256: [currentKeyPin, backupKeyPin]))
  /// ```
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/tls`` when a root is not a DER certificate or a pin not a base64
  ///   SHA-256 digest; and on Linux for any policy but ``ServerTrustPolicy/system``: FoundationNetworking (libcurl)
  ///   gives no hook to evaluate a server's certificate, so the transport refuses the policy rather than run
  ///   without it (the AsyncHTTPClient transport takes custom roots there).
  public convenience init(
    configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration(),
    serverTrust: ServerTrustPolicy
  ) throws {
    guard !serverTrust.isSystemDefault else {
      self.init(configuration: configuration, checkingTrustWith: nil)
      return
    }
    #if canImport(Security)
    try serverTrust.validate()
    self.init(configuration: configuration, checkingTrustWith: ServerTrustEvaluator(policy: serverTrust))
    #else
    throw CourierError(
      .tls,
      "URLSessionTransport cannot enforce custom roots or public-key pins here: URLSession on Linux has no hook to "
        + "evaluate a server's certificate. Use AsyncHTTPClientTransport for custom roots")
    #endif
  }

  private init(configuration: URLSessionConfiguration, checkingTrustWith serverTrust: ServerTrustEvaluator?) {
    let delegate = SessionDelegate(serverTrust: serverTrust)
    #if canImport(FoundationNetworking)
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: DelegateQueue())
    #else
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    #endif
    self.delegate = delegate
    ownsSession = true
    backgroundIdentifier = configuration.identifier
    #if canImport(FoundationNetworking)
    let unrepeatableDelegate = SessionDelegate(serverTrust: serverTrust)
    unrepeatable = (
      URLSession(configuration: configuration, delegate: unrepeatableDelegate, delegateQueue: DelegateQueue()),
      unrepeatableDelegate
    )
    #else
    unrepeatable = nil
    #endif
  }

  /// Creates a transport over a session you own (and invalidate). Bodies are sent and received whole: streaming
  /// and upload progress need the session that ``init(configuration:)`` creates. Servers are trusted as the
  /// session's own delegate says: a ``ServerTrustPolicy`` needs the session that
  /// ``init(configuration:serverTrust:)`` creates.
  public init(session: URLSession) {
    self.session = session
    delegate = nil
    unrepeatable = nil
    ownsSession = false
    backgroundIdentifier = session.configuration.identifier
  }

  /// The policy its session checks servers against.
  package var serverTrustPolicy: ServerTrustPolicy { delegate?.serverTrust?.policy ?? .system }

  deinit {
    if ownsSession { session.finishTasksAndInvalidate() }
    unrepeatable?.session.finishTasksAndInvalidate()
  }

  /// An ephemeral-style configuration without `URLCache`.
  public static func defaultConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    // Courier keeps cookies itself (``CookieJar``), the same way on every transport.
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    return configuration
  }

  /// The codings URLSession decodes by itself.
  public var supportedContentEncodings: [String] {
    #if canImport(Darwin)
    ["br", "gzip", "deflate"]
    #else
    ["gzip", "deflate"]
    #endif
  }

  /// Whether only delegate tasks can hand an authentication challenge back: FoundationNetworking's data tasks with
  /// a completion handler never return a 401 that carries `WWW-Authenticate: Basic` (nor Digest or Negotiate).
  #if canImport(FoundationNetworking)
  static let answersChallengesOnlyWithDelegates = true
  #else
  static let answersChallengesOnlyWithDelegates = false
  #endif

  /// Sends the request; cancelling the calling task (the call's deadline does) cancels the URLSession
  /// task.
  ///
  /// On Linux, libcurl sends a request again on a new connection when the kept-alive connection it reused fails
  /// before an answer, and cannot rewind the body it already sent. A request that is not idempotent (`POST`,
  /// `PATCH`, …) therefore goes out on a connection of its own (`Connection: close`), so it reaches the server at
  /// most once; a failure is `.connectionLost`, and the caller decides whether to send it again.
  public func send(
    _ request: HTTPRequest,
    body: BodyStream?,
    options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    if let refusal = Self.refusal(ofBackgroundSession: backgroundIdentifier, request: request) { throw refusal }
    // URLSession's delegate reports a request's body going out, and nothing for a request without one (nor for any
    // request sent through a completion handler): such a request counts as sent once it has been with the session
    // for `sentGrace` without failing. A refused connection, an unknown host or an offline device fail sooner.
    let hasBody = body.map { $0.length != 0 } ?? false
    let reportsBody = delegate != nil && Self.answersChallengesOnlyWithDelegates
    guard let requestSent = options.requestSent, !(hasBody && reportsBody) else {
      return try await exchange(request, body: body, options: options)
    }
    let timer = Task {
      try await Task.sleep(for: Self.sentGrace)
      requestSent()
    }
    defer { timer.cancel() }
    return try await exchange(request, body: body, options: options)
  }

  /// The error for a call on a background session (its configuration's `identifier`), `nil` for any other session.
  static func refusal(ofBackgroundSession identifier: String?, request: HTTPRequest) -> CourierError? {
    guard let identifier else { return nil }
    return CourierError(
      .invalidRequest,
      "The URLSession is a background one (\"\(identifier)\"): it follows redirects itself without asking, so "
        + "Courier's RedirectPolicy — which redirects to follow, what leaves with credentials — could not be kept, "
        + "and it allows no completion handler; use URLSessionTransport() or a default or ephemeral configuration",
      request: request)
  }

  /// How long a request URLSession says nothing about may be with the session before it counts as sent.
  static let sentGrace: Duration = .milliseconds(100)

  private func exchange(
    _ request: HTTPRequest,
    body: BodyStream?,
    options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    guard var urlRequest = Self.urlRequest(for: request, timeout: options.engineTimeout) else {
      throw CourierError(.invalidURL, "The request has no usable URL", request: request)
    }
    let buffered = body.map { $0.bufferedData != nil && $0.progress == nil } ?? true
    let incremental = options.deliversBodyIncrementally || options.idleTimeout != nil
    if let unrepeatable, !request.method.isIdempotent {
      urlRequest.setValue("close", forHTTPHeaderField: "Connection")
      return try await StreamingCall(
        session: unrepeatable.session, delegate: unrepeatable.delegate, request: request,
        requestSent: options.requestSent, limit: options.maxResponseBytes, collectsWhole: !incremental
      ).run(urlRequest, body: body)
    }
    let path = Self.exchangePath(
      hasDelegate: delegate != nil, challengesNeedDelegate: Self.answersChallengesOnlyWithDelegates,
      deliversBodyIncrementally: incremental, hasBufferedBody: buffered, responseLimit: options.maxResponseBytes)
    if let delegate, path == .delegate {
      return try await StreamingCall(
        session: session, delegate: delegate, request: request, requestSent: options.requestSent,
        limit: options.maxResponseBytes, collectsWhole: !incremental
      )
      .run(urlRequest, body: body)
    }
    if let body {
      urlRequest.httpBody = try await body.collect()
    }
    let (data, urlResponse) = try await perform(urlRequest, request: request)
    return (try Self.head(of: urlResponse, request: request), BodyStream(data))
  }

  /// Runs a data task with a completion handler; cancelling the calling task (the call's deadline does) cancels it.
  private func perform(
    _ urlRequest: URLRequest,
    request: HTTPRequest
  ) async throws -> (Data, URLResponse) {
    let state = Locked<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))
    let cancel: @Sendable () -> Void = {
      let task = state.withLock { state in
        state.cancelled = true
        return state.task
      }
      task?.cancel()
    }
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          let task = session.dataTask(with: urlRequest) { data, response, error in
            if let error {
              continuation.resume(throwing: error)
            } else if let response {
              continuation.resume(returning: (data ?? Data(), response))
            } else {
              continuation.resume(throwing: URLError(.badServerResponse))
            }
          }
          let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
          }
          task.resume()
          if cancelled { task.cancel() }
        }
      } onCancel: {
        cancel()
      }
    } catch {
      // A server that failed the trust policy ends the task as cancelled; the evaluator kept why.
      let failure = state.withLock { $0.task }.flatMap { delegate?.serverTrust?.takeFailure(of: $0) }
      throw CourierError(transportFailure: failure ?? error, request: request)
    }
  }
}
