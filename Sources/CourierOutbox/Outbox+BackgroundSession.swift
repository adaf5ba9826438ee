import Courier
import Foundation
import HTTPTypes

// The Apple glue of background uploads, a few lines each: the system's background URLSessions as a
// `BackgroundSystem`. What it calls is in BackgroundUploads.swift, where it runs on Linux too, over
// `BackgroundSystemSimulator`.

extension Outbox {
  /// The platform's background sessions: background URLSessions on Apple platforms, outside app extensions; `nil`
  /// elsewhere. An app extension gets none: its background session would need a shared container, and the system
  /// ends the extension long before such uploads do; its large bodies are sent in the foreground.
  static func systemBackgroundSessions() -> (any BackgroundSystem)? {
    #if canImport(Darwin)
    guard !runsInAppExtension else { return nil }
    return URLSessionBackgroundSystem()
    #else
    return nil
    #endif
  }

  /// Whether this process is an app extension (an `.appex` bundle), which shares its app's outbox but not its
  /// background session.
  static var runsInAppExtension: Bool {
    #if canImport(Darwin)
    Bundle.main.bundleURL.pathExtension == "appex"
    #else
    false
    #endif
  }
}

#if canImport(Darwin)
/// Background URLSessions: one per identifier in this process, as URLSession requires, each held until it is
/// invalidated (a new one with the identifier waits for nothing: it is refused until then).
struct URLSessionBackgroundSystem: BackgroundSystem {
  func makeSession(identifier: String, delegate: any BackgroundSessionDelegate) throws -> any BackgroundSession {
    try URLSessionBackgroundSession(identifier: identifier, delegate: delegate)
  }

  func beginBackgroundTime(reason: String, expired: @escaping @Sendable () async -> Void) -> @Sendable () -> Void {
    BackgroundTime.begin(reason: reason, expired: expired)
  }
}

/// A background URLSession whose events go to a ``BackgroundSessionDelegate``.
final class URLSessionBackgroundSession: NSObject, BackgroundSession, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: `session` is set once, in init, before any delegate call can read it; the rest is behind locks.
  let identifier: String
  private var session: URLSession!
  private let delegate: Locked<(any BackgroundSessionDelegate)?>
  private let bodies = Locked([Int: Data]())
  private let trust: ServerTrustEvaluator?
  /// The identifiers with a valid session in this process: the system's own table, mirrored so that a second session
  /// is refused rather than left with undefined behaviour.
  private static let valid = Locked(Set<String>())

  init(identifier: String, delegate: any BackgroundSessionDelegate) throws {
    guard Self.valid.withLock({ $0.insert(identifier).inserted }) else {
      throw CourierError(.invalidRequest, "This process has a valid background session \(identifier) already")
    }
    self.identifier = identifier
    self.delegate = Locked(delegate)
    let policy = delegate.serverTrustPolicy
    trust = policy.isSystemDefault ? nil : ServerTrustEvaluator(policy: policy)
    super.init()
    let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
    configuration.sessionSendsLaunchEvents = true
    // Cookies are Courier's: the request carries them; the session keeps none of its own.
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
  }

  func upload(_ upload: BackgroundUpload) throws {
    guard var request = URLSessionTransport.urlRequest(for: upload.request, timeout: 60) else {
      throw CourierError(.invalidURL, "The background upload \(upload.taskDescription) has no URL")
    }
    request.allowsExpensiveNetworkAccess = upload.allowsExpensiveNetworkAccess
    request.allowsConstrainedNetworkAccess = upload.allowsConstrainedNetworkAccess
    let task = session.uploadTask(with: request, fromFile: upload.file)
    task.taskDescription = upload.taskDescription
    task.resume()
  }

  var isValid: Bool { delegate.withLock { $0 != nil } }

  func runningTaskDescriptions() async -> [String] {
    await session.allTasks.compactMap(\.taskDescription)
  }

  func finishTasksAndInvalidate() {
    session.finishTasksAndInvalidate()
  }

  func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
    delegate.withLock { $0 = nil }
    _ = Self.valid.withLock { $0.remove(identifier) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    // The client's roots and pins, as its own transport checks them.
    guard let trust, trust.answer(challenge, of: task, completionHandler: completionHandler) else {
      completionHandler(.performDefaultHandling, nil)
      return
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    bodies.withLock { $0[dataTask.taskIdentifier, default: Data()].append(data) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let body = bodies.withLock { $0.removeValue(forKey: task.taskIdentifier) } ?? Data()
    guard let description = task.taskDescription, let delegate = delegate.withLock({ $0 }) else { return }
    let outcome: BackgroundTaskOutcome
    if let failure = trust?.takeFailure(of: task) {
      outcome = .failed(failure)
    } else if let error {
      outcome = .failed(CourierError(transportFailure: error, request: nil))
    } else if let response = task.response as? HTTPURLResponse,
      response.value(forHTTPHeaderField: "Content-Encoding") == nil, Int64(body.count) < task.countOfBytesReceived
    {
      // The app was ended while the answer came in: part of it is lost. Sent again with its key, the server answers
      // with the whole stored answer.
      outcome = .failed(
        CourierError(
          .connectionLost,
          "The answer to \(description) was cut (\(body.count) of \(task.countOfBytesReceived) bytes)"))
    } else if let response = task.response,
      let head = try? URLSessionTransport.head(
        of: response, request: HTTPRequest(method: .post, scheme: nil, authority: nil, path: nil))
    {
      outcome = .answered(head, body)
    } else {
      outcome = .failed(CourierError(.connectionLost, "The background upload \(description) ended without a response"))
    }
    delegate.backgroundSession(self, taskNamed: description, didFinishWith: outcome)
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    delegate.withLock { $0 }?.backgroundSessionDidFinishEvents(self)
  }
}
#endif
