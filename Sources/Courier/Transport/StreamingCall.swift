import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
