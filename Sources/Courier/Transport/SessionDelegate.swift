import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of a ``URLSessionTransport``: hands each task's callbacks to that task's own
/// ``StreamingTaskDelegate``.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: NSObject is not Sendable on Linux. The mutable state is the lock-protected table; `serverTrust` is an
  // immutable, Sendable evaluator.
  private let tasks = Locked<[Int: StreamingTaskDelegate]>([:])
  /// Checks servers by a policy other than the system's (on Apple platforms); `nil` leaves trust to the system.
  let serverTrust: ServerTrustEvaluator?

  init(serverTrust: ServerTrustEvaluator? = nil) {
    self.serverTrust = serverTrust
  }

  func register(_ delegate: StreamingTaskDelegate, for task: URLSessionTask) {
    tasks.withLock { $0[task.taskIdentifier] = delegate }
  }

  private func delegate(for task: URLSessionTask) -> StreamingTaskDelegate? {
    tasks.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    delegate(for: dataTask)?.received(response)
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    delegate(for: dataTask)?.received(data)
  }

  /// Declines every HTTP authentication challenge, so that a 401 or 407 is an ordinary response whatever its
  /// `WWW-Authenticate` scheme (Courier's ``AuthInterceptor`` and the caller handle it); server trust goes to
  /// ``serverTrust`` when there is one, and is otherwise left to the system, as are client certificates.
  ///
  /// This delegate has no session-level challenge method, so URLSession asks about server trust here, for every
  /// task, those with a completion handler too.
  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    #if canImport(Security)
    if let serverTrust, serverTrust.answer(challenge, of: task, completionHandler: completionHandler) { return }
    #endif
    #if !canImport(FoundationNetworking)
    let method = challenge.protectionSpace.authenticationMethod
    guard method != NSURLAuthenticationMethodServerTrust, method != NSURLAuthenticationMethodClientCertificate else {
      completionHandler(.performDefaultHandling, nil)
      return
    }
    #endif
    delegate(for: task)?.declinedChallenge()
    completionHandler(.rejectProtectionSpace, nil)
  }

  /// Hands every redirect back as the response: Courier follows redirects itself, by its own rules.
  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    delegate(for: task)?.sent(totalBytesSent)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    // A task with a completion handler has no delegate here and takes its trust failure there.
    guard let delegate = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    delegate.completed(serverTrust?.takeFailure(of: task) ?? error)
  }
}
