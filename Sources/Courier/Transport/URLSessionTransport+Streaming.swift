import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of a ``URLSessionTransport``: hands each task's callbacks to that task's own
/// ``StreamingTaskDelegate``.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: the only state is the lock-protected table.
  private let tasks = Locked<[Int: StreamingTaskDelegate]>([:])

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
  /// `WWW-Authenticate` scheme (Courier's ``AuthInterceptor`` and the caller handle it); server trust and client
  /// certificates are left to the system.
  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
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
    let delegate = tasks.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    delegate?.completed(error)
  }
}

/// One streaming task's callbacks: the response head resumes the caller, body chunks go to the response body's
/// stream, and sent byte counts to the request body's progress.
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
  }

  private let state = Locked(State())
  private let chunks: AsyncThrowingStream<Data, any Error>.Continuation
  let stream: AsyncThrowingStream<Data, any Error>
  private let progress: ProgressReporter?
  private let request: HTTPRequest
  private let uploadLength: Int64?
  private let temporaryFile: URL?
  private let requestSent: (@Sendable () -> Void)?
  private let limit: Int?

  init(
    request: HTTPRequest, progress: ProgressReporter?, uploadLength: Int64?, temporaryFile: URL?,
    requestSent: (@Sendable () -> Void)?, limit: Int?
  ) {
    self.requestSent = requestSent
    self.limit = limit
    (stream, chunks) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
    self.request = request
    self.progress = progress
    self.uploadLength = uploadLength
    self.temporaryFile = temporaryFile
    // A consumer that stops reading (or is cancelled) ends the transfer.
    chunks.onTermination = { [weak self] _ in self?.cancel() }
  }

  /// Starts `task` and waits for the response head; cancelling the calling task cancels `task`.
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

  /// Cancels the task (the caller was cancelled or stopped reading the body).
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
    if let status = (response as? HTTPURLResponse)?.statusCode, (100..<200).contains(status), status != 101 { return }
    requestSent?()
    let head = state.withLock { state in
      defer {
        state.head = nil
        state.headDelivered = true
      }
      return state.head
    }
    head?.resume(returning: response)
  }

  func received(_ data: Data) {
    guard let limit else {
      chunks.yield(data)
      return
    }
    // The reader stops at `limit` bytes; receiving far ahead of it would hold the rest in memory.
    let total = state.withLock { state in
      state.received += data.count
      return state.received
    }
    chunks.yield(data)
    if total > limit {
      chunks.finish(
        throwing: CourierError(
          .responseTooLarge, "The body is larger than the limit of \(limit) bytes", request: request))
      cancel()
    }
  }

  func declinedChallenge() {
    state.withLock { $0.declinedChallenge = true }
  }

  func sent(_ totalBytes: Int64) {
    requestSent?()
    progress?.reached(totalBytes)
  }

  func completed(_ error: (any Error)?) {
    let (head, answered) = state.withLock { state in
      state.completed = true
      defer { state.head = nil }
      let answered = state.declinedChallenge && state.headDelivered && !state.cancelled
      state.endedCleanly = error == nil || answered
      return (state.head, answered)
    }
    if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
    if let error, answered, (error as? URLError)?.code == .cancelled {
      chunks.finish()  // the challenge's response was delivered whole before the task was ended
    } else if let error {
      let failure = CourierError(transportFailure: error, request: request)
      head?.resume(throwing: failure)
      chunks.finish(throwing: failure)
    } else {
      head?.resume(throwing: CourierError(.transport, "The server sent no response", request: request))
      chunks.finish()
    }
  }

  /// Whether the task ended on its own with the whole response, as opposed to the stream being cut short by
  /// cancellation (whose task then completes as cancelled).
  var endedCleanly: Bool { state.withLock { $0.endedCleanly } }
}

/// One request over the delegate path of ``URLSessionTransport``.
struct StreamingCall {
  let session: URLSession
  let delegate: SessionDelegate
  let request: HTTPRequest
  let requestSent: (@Sendable () -> Void)?
  /// The most body bytes to receive before ending the task (the reader would refuse more).
  var limit: Int?

  /// Chunk size for writing a streamed request body to its temporary file.
  static let spoolChunkSize = 256 * 1024

  func run(_ urlRequest: URLRequest, body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody) {
    var urlRequest = urlRequest
    // URLSession sets Content-Length itself from the data or file it uploads.
    urlRequest.setValue(nil, forHTTPHeaderField: "Content-Length")
    urlRequest.httpBody = nil
    let task: URLSessionTask
    var temporaryFile: URL?
    var uploadLength: Int64?
    if let body, let data = body.bufferedData {
      task = session.uploadTask(with: urlRequest, from: data)
      uploadLength = Int64(data.count)
    } else if let body, let file = body.file {
      task = session.uploadTask(with: urlRequest, fromFile: file)
      uploadLength = body.length
    } else if let body {
      let (file, size) = try await spool(body)
      temporaryFile = file
      task = session.uploadTask(with: urlRequest, fromFile: file)
      uploadLength = size
    } else {
      task = session.dataTask(with: urlRequest)
    }
    let taskDelegate = StreamingTaskDelegate(
      request: request, progress: body?.progress, uploadLength: uploadLength, temporaryFile: temporaryFile,
      requestSent: requestSent, limit: limit)
    delegate.register(taskDelegate, for: task)
    let urlResponse = try await taskDelegate.start(task)
    let response = try URLSessionTransport.head(of: urlResponse, request: request)
    var length: Int64?
    if urlResponse.expectedContentLength >= 0, response.headerFields[.contentEncoding] == nil {
      length = urlResponse.expectedContentLength
    }
    return (response, HTTPBody(ResponseChunks(delegate: taskDelegate), length: length))
  }

  /// Writes a streamed body to a temporary file, a chunk at a time, so URLSession can upload it with a known length.
  private func spool(_ body: HTTPBody) async throws -> (URL, Int64) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
      throw CourierError(.transport, "A temporary file for the request body could not be created at \(file.path)")
    }
    do {
      let handle = try FileHandle(forWritingTo: file)
      defer { try? handle.close() }
      var size: Int64 = 0
      for try await chunk in body.reporting(to: nil) {
        try Task.checkCancellation()
        try handle.write(contentsOf: chunk)
        size += Int64(chunk.count)
      }
      return (file, size)
    } catch {
      try? FileManager.default.removeItem(at: file)
      throw CourierError(transportFailure: error, request: request)
    }
  }
}

/// The response body of a streaming task. A stream that ends before the task completed was cancelled: it throws
/// instead of passing for a short body. Dropping the iterator cancels the task.
struct ResponseChunks: AsyncSequence, Sendable {
  typealias Element = Data
  let delegate: StreamingTaskDelegate

  final class AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Data, any Error>.AsyncIterator
    let delegate: StreamingTaskDelegate

    init(delegate: StreamingTaskDelegate) {
      self.delegate = delegate
      base = delegate.stream.makeAsyncIterator()
    }

    deinit { delegate.cancel() }

    func next() async throws -> Data? {
      if let chunk = try await base.next() { return chunk }
      guard delegate.endedCleanly else {
        throw CourierError(.cancelled, "The response body was cancelled before it ended")
      }
      return nil
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(delegate: delegate)
  }
}
