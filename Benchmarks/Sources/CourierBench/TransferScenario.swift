import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Who moves the large file: a raw client or Courier, over URLSession or AsyncHTTPClient.
enum TransferVariant: String, CaseIterable {
  case rawURLSession = "urlsession-raw"
  case courierURLSession = "urlsession-courier"
  case rawAsyncHTTPClient = "ahc-raw"
  case courierAsyncHTTPClient = "ahc-courier"
}

/// Uploads a file with a streaming body (`PUT`, answered 201/204 by nginx's WebDAV module once the whole file has
/// arrived), or downloads the large file and counts its bytes without keeping them.
///
/// - Raw AsyncHTTPClient streams the file as `ByteBuffer`s and reads the response body buffer by buffer.
/// - Courier uploads through `APIClient.send` with `.body(.file(_:))` (a streamed file body) and downloads through
///   `APIClient.stream`, counting the chunks of the streamed body.
/// - Raw URLSession uploads with `upload(for:fromFile:)` and downloads through a data delegate that counts bytes;
///   `URLSessionTransport` uploads a file body from its file and streams the response through its task's delegate.
enum TransferScenario {
  static let chunkSize = 1 << 20
  static let timeout: TimeInterval = 3600

  static func upload(_ variant: TransferVariant, baseURL: URL, file: String) async throws -> Measurement {
    let size = try fileSize(file)
    let url = baseURL.appendingPathComponent("upload/\(variant.rawValue).bin")
    let start = ContinuousClock.now
    switch variant {
    case .rawAsyncHTTPClient:
      try await withHTTPClient { httpClient, _ in
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .stream(FileByteBuffers(path: file, chunkSize: chunkSize), length: .known(size))
        let response = try await httpClient.execute(request, timeout: .seconds(Int64(timeout)))
        guard response.status == .created || response.status == .noContent else {
          throw BenchmarkFailure("status \(response.status)")
        }
      }
    case .courierAsyncHTTPClient:
      try await withHTTPClient { httpClient, configuration in
        let transport = AsyncHTTPClientTransport(client: httpClient, configuration: configuration)
        try await courierUpload(over: transport, url: url, file: file)
      }
    case .rawURLSession:
      let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
      var request = URLRequest(url: url)
      request.httpMethod = "PUT"
      request.timeoutInterval = timeout
      request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
      let (_, response) = try await session.upload(for: request, fromFile: URL(fileURLWithPath: file))
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      guard status == 201 || status == 204 else { throw BenchmarkFailure("status \(status)") }
      session.finishTasksAndInvalidate()
    case .courierURLSession:
      try await courierUpload(over: URLSessionTransport(), url: url, file: file)
    }
    let seconds = secondsSince(start)
    return Measurement(value: Double(size) / seconds / 1e6, unit: "MB/s", operations: 1, seconds: seconds)
  }

  static func download(_ variant: TransferVariant, baseURL: URL, expectedSize: Int64) async throws -> Measurement {
    let url = baseURL.appendingPathComponent("large.bin")
    let start = ContinuousClock.now
    var received: Int64 = 0
    switch variant {
    case .rawAsyncHTTPClient:
      received = try await withHTTPClient { httpClient, _ in
        let response = try await httpClient.execute(
          HTTPClientRequest(url: url.absoluteString), timeout: .seconds(Int64(timeout)))
        guard response.status == .ok else { throw BenchmarkFailure("status \(response.status)") }
        var count: Int64 = 0
        for try await buffer in response.body { count += Int64(buffer.readableBytes) }
        return count
      }
    case .courierAsyncHTTPClient:
      received = try await withHTTPClient { httpClient, configuration in
        try await courierDownload(
          over: AsyncHTTPClientTransport(client: httpClient, configuration: configuration), url: url)
      }
    case .rawURLSession:
      received = try await CountingDownload.run(url: url, timeout: timeout)
    case .courierURLSession:
      received = try await courierDownload(over: URLSessionTransport(), url: url)
    }
    let seconds = secondsSince(start)
    guard received == expectedSize else { throw BenchmarkFailure("received \(received) of \(expectedSize) bytes") }
    return Measurement(value: Double(received) / seconds / 1e6, unit: "MB/s", operations: 1, seconds: seconds)
  }

  /// A buffered `APIClient.send` of the large file with `maxResponseBytes(limit)`: the call must fail with
  /// `.responseTooLarge`. `path` is `large.bin` (nginx sends its `Content-Length`) or `chunked/large.bin` (no
  /// length, so the limit is enforced while the body arrives). The value is the time to the error; what matters is
  /// the peak RSS, which must stay near the limit however large the response.
  static func limit(_ variant: TransferVariant, baseURL: URL, path: String, limit: Int) async throws -> Measurement {
    let url = baseURL.appendingPathComponent(path)
    let start = ContinuousClock.now
    func send(over transport: any HTTPTransport) async throws {
      let client = APIClient(baseURL: nil) { $0.transport = transport }
      do {
        let response = try await client.send(
          Endpoint<Data>.get(url.absoluteString).maxResponseBytes(limit).timeout(timeout))
        throw BenchmarkFailure("\(response.data.count) bytes arrived despite a limit of \(limit)")
      } catch let error as CourierError where error.kind == .responseTooLarge {
        return
      }
    }
    switch variant {
    case .courierAsyncHTTPClient:
      try await withHTTPClient { httpClient, configuration in
        try await send(over: AsyncHTTPClientTransport(client: httpClient, configuration: configuration))
      }
    case .courierURLSession:
      try await send(over: URLSessionTransport())
    case .rawAsyncHTTPClient, .rawURLSession:
      throw BenchmarkFailure("limit measures Courier only: ahc-courier or urlsession-courier")
    }
    let seconds = secondsSince(start)
    return Measurement(value: seconds * 1000, unit: "ms", operations: 1, seconds: seconds)
  }

  private static func courierUpload(over transport: any HTTPTransport, url: URL, file: String) async throws {
    let client = APIClient(baseURL: nil) { $0.transport = transport }
    try await client.send(
      Endpoint<EmptyBody>.put(url.absoluteString)
        .body(.file(URL(fileURLWithPath: file), contentType: "application/octet-stream"))
        .expect(.created, .noContent).timeout(timeout))
  }

  /// Uploads the file as the one part of a `multipart/form-data` body: raw AsyncHTTPClient streams a hand-written
  /// preamble, the file's buffers and the closing boundary; Courier sends `MultipartFormData.append(fileAt:)`.
  static func multipartUpload(_ variant: TransferVariant, baseURL: URL, file: String) async throws -> Measurement {
    let size = try fileSize(file)
    let url = baseURL.appendingPathComponent("upload/multipart-\(variant.rawValue).bin")
    let boundary = "courier-bench-boundary-7d1f3a"
    let start = ContinuousClock.now
    switch variant {
    case .rawAsyncHTTPClient:
      try await withHTTPClient { httpClient, _ in
        let preamble = ByteBuffer(
          string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"large.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n")
        let epilogue = ByteBuffer(string: "\r\n--\(boundary)--\r\n")
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        let parts = MultipartByteBuffers(
          preamble: preamble, file: FileByteBuffers(path: file, chunkSize: chunkSize), epilogue: epilogue)
        let length = Int64(preamble.readableBytes + epilogue.readableBytes) + size
        request.body = .stream(parts, length: .known(length))
        let response = try await httpClient.execute(request, timeout: .seconds(Int64(timeout)))
        guard response.status == .created || response.status == .noContent else {
          throw BenchmarkFailure("status \(response.status)")
        }
      }
    case .courierAsyncHTTPClient:
      try await withHTTPClient { httpClient, configuration in
        let client = APIClient(baseURL: nil) {
          $0.transport = AsyncHTTPClientTransport(client: httpClient, configuration: configuration)
        }
        var form = MultipartFormData(boundary: boundary)
        form.append(
          fileAt: URL(fileURLWithPath: file), name: "file", fileName: "large.bin", mimeType: "application/octet-stream")
        try await client.send(
          Endpoint<EmptyBody>.put(url.absoluteString).body(.multipart(form)).expect(.created, .noContent).timeout(
            timeout))
      }
    case .rawURLSession:
      // Without a streamed body on Linux, a raw URLSession client writes the form to a file and uploads that.
      let form = FileManager.default.temporaryDirectory.appendingPathComponent("bench-form-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: form) }
      try writeMultipartFile(at: form, boundary: boundary, file: file)
      let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
      var request = URLRequest(url: url)
      request.httpMethod = "PUT"
      request.timeoutInterval = timeout
      request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
      let (_, response) = try await session.upload(for: request, fromFile: form)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      guard status == 201 || status == 204 else { throw BenchmarkFailure("status \(status)") }
      session.finishTasksAndInvalidate()
    case .courierURLSession:
      let client = APIClient(baseURL: nil) { $0.transport = URLSessionTransport() }
      var form = MultipartFormData(boundary: boundary)
      form.append(
        fileAt: URL(fileURLWithPath: file), name: "file", fileName: "large.bin", mimeType: "application/octet-stream")
      try await client.send(
        Endpoint<EmptyBody>.put(url.absoluteString).body(.multipart(form)).expect(.created, .noContent).timeout(timeout)
      )
    }
    let seconds = secondsSince(start)
    return Measurement(value: Double(size) / seconds / 1e6, unit: "MB/s", operations: 1, seconds: seconds)
  }

  private static func courierDownload(over transport: any HTTPTransport, url: URL) async throws -> Int64 {
    let client = APIClient(baseURL: nil) { $0.transport = transport }
    let stream = try await client.stream(Endpoint<Data>.get(url.absoluteString).timeout(timeout))
    var count: Int64 = 0
    for try await chunk in stream.body { count += Int64(chunk.count) }
    return count
  }

  private static func withHTTPClient<T>(
    _ body: (HTTPClient, AsyncHTTPClientTransport.Configuration) async throws -> T
  ) async throws -> T {
    let configuration = AsyncHTTPClientTransport.Configuration()
    let httpClient = HTTPClient(
      eventLoopGroupProvider: .singleton, configuration: configuration.httpClientConfiguration)
    do {
      let result = try await body(httpClient, configuration)
      try await httpClient.shutdown()
      return result
    } catch {
      try? await httpClient.shutdown()
      throw error
    }
  }

  /// Writes a one-part `multipart/form-data` body around the file, a chunk at a time.
  private static func writeMultipartFile(at form: URL, boundary: String, file: String) throws {
    guard FileManager.default.createFile(atPath: form.path, contents: nil) else {
      throw BenchmarkFailure("cannot create \(form.path)")
    }
    let output = try FileHandle(forWritingTo: form)
    defer { try? output.close() }
    let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
    defer { try? input.close() }
    try output.write(
      contentsOf: Data(
        ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"large.bin\"\r\n"
          + "Content-Type: application/octet-stream\r\n\r\n").utf8))
    while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty { try output.write(contentsOf: chunk) }
    try output.write(contentsOf: Data("\r\n--\(boundary)--\r\n".utf8))
  }

  static func fileSize(_ path: String) throws -> Int64 {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.size] as? NSNumber)?.int64Value ?? 0
  }
}

/// A raw URLSession download that counts bytes as they arrive and keeps none of them.
final class CountingDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: `received` and `continuation` are only touched under `lock`.
  private let lock = NSLock()
  private var received: Int64 = 0
  private var continuation: CheckedContinuation<Int64, any Error>?

  static func run(url: URL, timeout: TimeInterval) async throws -> Int64 {
    let delegate = CountingDownload()
    let session = URLSession(
      configuration: URLSessionTransport.defaultConfiguration(), delegate: delegate, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    var request = URLRequest(url: url)
    request.timeoutInterval = timeout
    return try await withCheckedThrowingContinuation { continuation in
      delegate.lock.withLock { delegate.continuation = continuation }
      session.dataTask(with: request).resume()
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    lock.withLock { received += Int64(data.count) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let (continuation, received) = lock.withLock {
      defer { self.continuation = nil }
      return (self.continuation, self.received)
    }
    if let error {
      continuation?.resume(throwing: error)
    } else {
      continuation?.resume(returning: received)
    }
  }
}
