import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one URLSession data task with a delegate and records what arrived before it ended: the response, the body
/// bytes (counted, and kept up to a limit) and the error, if any.
final class SessionRecorder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  /// What a finished task delivered.
  struct Outcome: Sendable {
    var response: HTTPURLResponse?
    var data: Data
    var byteCount: Int
    var error: URLError?
  }

  private let lock = NSLock()
  private let keep: Int
  private var outcome = Outcome(response: nil, data: Data(), byteCount: 0, error: nil)
  private var continuation: CheckedContinuation<Outcome, Never>?

  private init(keep: Int) {
    self.keep = keep
  }

  /// Runs `request` on a fresh ephemeral session, keeping at most `keep` body bytes.
  static func run(_ request: URLRequest, keep: Int = 1 << 24) async -> Outcome {
    let recorder = SessionRecorder(keep: keep)
    let session = URLSession(configuration: .ephemeral, delegate: recorder, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    return await withCheckedContinuation { continuation in
      recorder.lock.withLock { recorder.continuation = continuation }
      session.dataTask(with: request).resume()
    }
  }

  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    lock.withLock { outcome.response = response as? HTTPURLResponse }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    lock.withLock {
      outcome.byteCount += data.count
      if outcome.data.count < keep {
        outcome.data.append(data.prefix(keep - outcome.data.count))
      }
    }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let failure = error.map(Self.urlError)
    lock.lock()
    outcome.error = failure
    let finished = outcome
    let waiting = continuation
    continuation = nil
    lock.unlock()
    waiting?.resume(returning: finished)
  }

  /// `error` as a `URLError` (FoundationNetworking hands the delegate an `NSError` in `NSURLErrorDomain`).
  static func urlError(_ error: any Error) -> URLError {
    if let error = error as? URLError {
      return error
    }
    let nsError = error as NSError
    let code: URLError.Code? = nsError.domain == NSURLErrorDomain ? URLError.Code(rawValue: nsError.code) : nil
    return URLError(code ?? .unknown)
  }
}
