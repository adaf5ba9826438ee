import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One streaming task's callbacks: the response head resumes the caller, body chunks go to the response body's
/// stream, and sent byte counts to the request body's progress.
///
/// A caller that does not read the body as it arrives gets a small body whole: when the head declares a length up to
/// ``StreamingCall/wholeBodyLimit`` (or has no body), the caller is resumed once the task completed, with the body
/// collected here, as the AsyncHTTPClient transport does; no stream is made for it.
final class StreamingTaskDelegate: Sendable {
  private struct State {
    var head: CheckedContinuation<URLResponse, any Error>?
    var headDelivered = false
    var task: URLSessionTask?
    var cancelled = false
    var completed = false
    /// An authentication challenge was declined: FoundationNetworking then ends the task as cancelled after it has
    /// delivered the whole response.
    var declinedChallenge = false
    /// The task ended on its own with the whole response (not cancelled, not failed).
    var endedCleanly = false
    /// Body bytes received so far.
    var received = 0
    /// The final head, while the body is collected whole before the caller is resumed.
    var collecting: URLResponse?
    /// The body collected whole.
    var collected: Data?
    /// Where the body's chunks go when it is handed on as it arrives.
    var chunks: AsyncThrowingStream<Data, any Error>.Continuation?
    var stream: AsyncThrowingStream<Data, any Error>?
  }

  private let state = Locked(State())
  private let progress: ProgressReporter?
  private let request: HTTPRequest
  private let uploadLength: Int64?
  private let temporaryFile: URL?
  private let requestSent: (@Sendable () -> Void)?
  private let limit: Int?
  /// The longest declared body that is collected whole, or `nil` when the caller reads the body as it arrives.
  private let collectsUpTo: Int?

  init(
    request: HTTPRequest, progress: ProgressReporter?, uploadLength: Int64?, temporaryFile: URL?,
    requestSent: (@Sendable () -> Void)?, limit: Int?, collectsUpTo: Int?
  ) {
    self.requestSent = requestSent
    self.limit = limit
    self.collectsUpTo = collectsUpTo
    self.request = request
    self.progress = progress
    self.uploadLength = uploadLength
    self.temporaryFile = temporaryFile
  }

  /// Starts `task` and waits for the response head (with a body collected whole, for the whole response);
  /// cancelling the calling task cancels `task`.
  func start(_ task: URLSessionTask) async throws -> URLResponse {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let cancelled = state.withLock { state in
          state.head = continuation
          state.task = task
          return state.cancelled
        }
        progress?.start(total: uploadLength)
        task.resume()
        if cancelled { task.cancel() }
      }
    } onCancel: {
      cancel()
    }
  }

  /// The response body: collected whole, or the stream its chunks arrive on.
  var body: (whole: Data?, chunks: AsyncThrowingStream<Data, any Error>?) {
    state.withLock { state in (state.collected, state.stream) }
  }

  /// Cancels the task (the caller was cancelled or stopped reading the body, or the call's deadline passed).
  func cancel() {
    let task = state.withLock { state in
      state.cancelled = true
      return state.completed ? nil : state.task
    }
    task?.cancel()
  }

  func received(_ response: URLResponse) {
    // FoundationNetworking reports interim 1xx heads (103 Early Hints, an unasked-for 100) as responses of their own
    // before the final one; only the final head is the response (101 ends the exchange and is final here).
    let status = (response as? HTTPURLResponse)?.statusCode
    if let status, (100..<200).contains(status), status != 101 { return }
    requestSent?()
    let whole = collectsWhole(response, status: status)
    let (stream, chunks) =
      whole ? (nil, nil) : AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
    // A consumer that stops reading (or is cancelled) ends the transfer.
    chunks?.onTermination = { [weak self] _ in self?.cancel() }
    let head = state.withLock { state -> CheckedContinuation<URLResponse, any Error>? in
      state.headDelivered = true
      if whole {
        state.collecting = response
        return nil
      }
      state.stream = stream
      state.chunks = chunks
      defer { state.head = nil }
      return state.head
    }
    head?.resume(returning: response)
  }

  /// Whether the body of `response` is collected whole: the caller does not read it as it arrives, and it is empty
  /// or declares a length within ``collectsUpTo``.
  private func collectsWhole(_ response: URLResponse, status: Int?) -> Bool {
    guard let collectsUpTo else { return false }
    if request.method == .head || status == 204 || status == 304 { return true }
    let length = response.expectedContentLength
    return length >= 0 && length <= Int64(min(collectsUpTo, limit ?? .max))
  }

  func received(_ data: Data) {
    enum Next {
      case stream(AsyncThrowingStream<Data, any Error>.Continuation?, total: Int)
      case collected
      case tooLarge(CheckedContinuation<URLResponse, any Error>?, head: URLResponse?)
    }
    let next = state.withLock { state -> Next in
      state.received += data.count
      guard state.collecting != nil else { return .stream(state.chunks, total: state.received) }
      if let limit, state.received > limit {
        // A coded body decoded to more than it declared.
        defer {
          state.head = nil
          state.collecting = nil
          state.collected = nil
        }
        return .tooLarge(state.head, head: state.collecting)
      }
      if state.collected == nil { state.collected = data } else { state.collected?.append(data) }
      return .collected
    }
    switch next {
    case .collected:
      return
    case .tooLarge(let continuation, let head):
      continuation?.resume(throwing: keepingHead(tooLarge, of: head))
      cancel()
    case .stream(let chunks, let total):
      chunks?.yield(data)
      // The reader stops at `limit` bytes; receiving far ahead of it would hold the rest in memory.
      if let limit, total > limit {
        chunks?.finish(throwing: tooLarge)
        cancel()
      }
    }
  }

  private var tooLarge: CourierError {
    CourierError(.responseTooLarge, "The body is larger than the limit of \(limit ?? 0) bytes", request: request)
  }

  /// `failure` with the head of `response` (whose body was being collected), as a failure while reading the body
  /// carries it.
  private func keepingHead(_ failure: CourierError, of response: URLResponse?) -> CourierError {
    guard let response, failure.response == nil else { return failure }
    var failure = failure
    failure.response = try? URLSessionTransport.head(of: response, request: request)
    return failure
  }

  func declinedChallenge() {
    state.withLock { $0.declinedChallenge = true }
  }

  func sent(_ totalBytes: Int64) {
    requestSent?()
    progress?.reached(totalBytes)
  }

  func completed(_ error: (any Error)?) {
    let (head, answered, whole, chunks) = state.withLock { state in
      state.completed = true
      defer { state.head = nil }
      let answered = state.declinedChallenge && state.headDelivered && !state.cancelled
      state.endedCleanly = error == nil || answered
      if state.collecting != nil, state.collected == nil { state.collected = Data() }
      return (state.head, answered, state.collecting, state.chunks)
    }
    if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
    if let error, answered, (error as? URLError)?.code == .cancelled {
      // The challenge's response was delivered whole before the task was ended.
      if let whole { head?.resume(returning: whole) }
      chunks?.finish()
    } else if let error {
      let failure = CourierError(transportFailure: error, request: request)
      head?.resume(throwing: keepingHead(failure, of: whole))
      chunks?.finish(throwing: failure)
    } else if let whole {
      head?.resume(returning: whole)
    } else {
      head?.resume(throwing: CourierError(.transport, "The server sent no response", request: request))
      chunks?.finish()
    }
  }

  /// Whether the task ended on its own with the whole response, as opposed to the stream being cut short by
  /// cancellation (whose task then completes as cancelled).
  var endedCleanly: Bool { state.withLock { $0.endedCleanly } }
}
