import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server-trust check of a ``URLSessionTransport``'s session: its policy, and the failure of each task whose
/// server failed it, kept until the task reports its end (URLSession ends such a task as cancelled).
package final class ServerTrustEvaluator: Sendable {
  package let policy: ServerTrustPolicy
  private let failures = Locked<[Int: CourierError]>([:])

  package init(policy: ServerTrustPolicy) {
    self.policy = policy
  }

  func record(_ failure: CourierError, for task: URLSessionTask) {
    failures.withLock { $0[task.taskIdentifier] = failure }
  }

  /// The trust failure that ended `task`, if one did; reported once.
  package func takeFailure(of task: URLSessionTask) -> CourierError? {
    failures.withLock { $0.removeValue(forKey: task.taskIdentifier) }
  }
}

#if canImport(Security)
import Security

extension ServerTrustEvaluator {
  /// Answers `challenge` when it asks about server trust: with the evaluated trust when the server passes the policy,
  /// by cancelling the task (and keeping why) when it fails. Returns `false` for any other challenge.
  package func answer(
    _ challenge: URLAuthenticationChallenge, of task: URLSessionTask,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) -> Bool {
    let space = challenge.protectionSpace
    guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust, let trust = space.serverTrust else {
      return false
    }
    do throws(CourierError) {
      try evaluate(trust, host: space.host)
      completionHandler(.useCredential, URLCredential(trust: trust))
    } catch {
      record(error, for: task)
      completionHandler(.cancelAuthenticationChallenge, nil)
    }
    return true
  }

  /// Evaluates `trust` as a server certificate for `host` against the policy's roots, then checks its pins.
  func evaluate(_ trust: SecTrust, host: String) throws(CourierError) {
    var statuses = [SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, host as CFString))]
    if !policy.certificates.isEmpty || !policy.trustsSystemRoots {
      let anchors = policy.certificates.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
      statuses.append(SecTrustSetAnchorCertificates(trust, anchors as CFArray))
      statuses.append(SecTrustSetAnchorCertificatesOnly(trust, !policy.trustsSystemRoots))
    }
    guard statuses.allSatisfy({ $0 == errSecSuccess }) else {
      throw CourierError(.tls, "The trust of \(host)'s certificate could not be set up (OSStatus \(statuses))")
    }
    var failure: CFError?
    guard SecTrustEvaluateWithError(trust, &failure) else {
      let count = policy.certificates.count
      let roots = policy.trustsSystemRoots ? "the system's and \(count) of its own" : "only its own \(count)"
      let check = TLSFailure(securityCode: failure.map { CFErrorGetCode($0) } ?? 0)
      let reported =
        "trust evaluation against the policy's roots (\(roots)): "
        + (failure.map { CFErrorCopyDescription($0) as String } ?? "not trusted")
      throw CourierError(.tls, check.detail(host: host, reported: reported), underlyingError: failure)
    }
    let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate] ?? []
    try policy.checkPins(host: host, chainDER: chain.map { SecCertificateCopyData($0) as Data })
  }
}
#endif
