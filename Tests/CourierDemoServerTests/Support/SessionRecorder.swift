import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one URLSession data task with a delegate and records what arrived before it ended: the response, the body
/// bytes (counted, and kept up to a limit) and the error, if any.
final class SessionRecorder: NSObject, URLSessionDataDelegate, Sendable {
  /// What a finished task delivered.
  struct Outcome: Sendable {
    var response: HTTPURLResponse?
    var data: Data
    var byteCount: Int
    var error: URLError?
  }

  private struct State {
    var outcome = Outcome(response: nil, data: Data(), byteCount: 0, error: nil)
    var continuation: CheckedContinuation<Outcome, Never>?
  }

  private let state = Locked(State())
  private let keep: Int

  private init(keep: Int) {
    self.keep = keep
  }

  /// Runs `request` on a fresh ephemeral session, keeping at most `keep` body bytes.
  static func run(_ request: URLRequest, keep: Int = 1 << 24) async -> Outcome {
    let recorder = SessionRecorder(keep: keep)
    let session = URLSession(configuration: .ephemeral, delegate: recorder, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    return await withCheckedContinuation { continuation in
      recorder.state.withLock { $0.continuation = continuation }
      session.dataTask(with: request).resume()
    }
  }

  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    state.withLock { $0.outcome.response = response as? HTTPURLResponse }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let keep = keep
    state.withLock { state in
      state.outcome.byteCount += data.count
      if state.outcome.data.count < keep {
        state.outcome.data.append(data.prefix(keep - state.outcome.data.count))
      }
    }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let failure = error.map(Self.urlError)
    let (finished, waiting) = state.withLock { state in
      state.outcome.error = failure
      defer { state.continuation = nil }
      return (state.outcome, state.continuation)
    }
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
