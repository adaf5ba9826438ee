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

/// One request over the delegate path of ``URLSessionTransport``.
struct StreamingCall {
  let session: URLSession
  let delegate: SessionDelegate
  let request: HTTPRequest
  let requestSent: (@Sendable () -> Void)?
  /// The most body bytes to receive before ending the task (the reader would refuse more).
  var limit: Int?
  /// Whether a small body is collected whole before the caller is resumed (the caller does not read it as it
  /// arrives).
  var collectsWhole = false

  func run(_ urlRequest: URLRequest, body: BodyStream?) async throws -> (HTTPResponse, BodyStream) {
    var urlRequest = urlRequest
    // URLSession sets Content-Length itself from the data or file it uploads. (Each change copies the request, so
    // only what is there is removed.)
    if request.headerFields[.contentLength] != nil { urlRequest.setValue(nil, forHTTPHeaderField: "Content-Length") }
    if urlRequest.httpBody != nil { urlRequest.httpBody = nil }
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
      requestSent: requestSent, limit: limit, collectsUpTo: collectsWhole ? Self.wholeBodyLimit : nil)
    delegate.register(taskDelegate, for: task)
    let urlResponse = try await taskDelegate.start(task)
    let response = try URLSessionTransport.head(of: urlResponse, request: request)
    let body = taskDelegate.body
    if let whole = body.whole { return (response, BodyStream(whole)) }
    var length: Int64?
    if urlResponse.expectedContentLength >= 0, response.headerFields[.contentEncoding] == nil {
      length = urlResponse.expectedContentLength
    }
    let chunks = body.chunks ?? AsyncThrowingStream { $0.finish() }
    return (response, BodyStream(ResponseChunks(chunks: chunks, delegate: taskDelegate), length: length))
  }

  /// The longest body a response may declare and still be collected whole for a caller that does not read it as
  /// it arrives (the AsyncHTTPClient transport's default `responseBufferingLimit`).
  static let wholeBodyLimit = 1 << 20

  /// Writes a streamed body to a temporary file, a chunk at a time, so URLSession can upload it with a known length.
  private func spool(_ body: BodyStream) async throws -> (URL, Int64) {
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
  let chunks: AsyncThrowingStream<Data, any Error>
  let delegate: StreamingTaskDelegate

  final class AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Data, any Error>.AsyncIterator
    let delegate: StreamingTaskDelegate

    init(chunks: AsyncThrowingStream<Data, any Error>, delegate: StreamingTaskDelegate) {
      self.delegate = delegate
      base = chunks.makeAsyncIterator()
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
    AsyncIterator(chunks: chunks, delegate: delegate)
  }
}
