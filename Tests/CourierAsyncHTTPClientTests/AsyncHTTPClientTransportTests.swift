import AsyncHTTPClient
import Courier
import CourierTestSupport
import Crypto
import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
import Testing

@testable import CourierAsyncHTTPClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What only the AsyncHTTPClient transport has: its configuration, its error classification, and its own client
/// lifecycle.
@Suite struct AsyncHTTPClientTransportTests {
  /// Stands in for NIOPosix's `NIOConnectionError`, which carries one failure per address tried.
  struct WrappedConnectionFailure: Error {
    struct Attempt { var address: String; var error: any Error }
    var host = "127.0.0.1"
    var attempts: [Attempt]
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func failuresAreClassifiedLikeURLErrors() {
    let cases: [(any Error, CourierError.Kind)] = [
      (HTTPClientError.deadlineExceeded, .timeout),
      (HTTPClientError.readTimeout, .timeout),
      (HTTPClientError.connectTimeout, .timeout),
      (ChannelError.connectTimeout(.seconds(1)), .timeout),
      (HTTPClientError.cancelled, .cancelled),
      (CancellationError(), .cancelled),
      (HTTPClientError.remoteConnectionClosed, .connectionLost),
      (ChannelError.eof, .connectionLost),
      (IOError(errnoCode: ECONNRESET, reason: "read"), .connectionLost),
      (IOError(errnoCode: ECONNREFUSED, reason: "connect"), .noConnection),
      (
        WrappedConnectionFailure(attempts: [
          .init(address: "127.0.0.1", error: IOError(errnoCode: ECONNREFUSED, reason: "connect"))
        ]), .noConnection
      ),
      (HTTPClientError.invalidURL, .invalidURL),
      (HTTPClientError.bodyLengthMismatch, .invalidRequest),
      (HTTPClientError.redirectLimitReached, .transport),
      (CocoaError(.fileNoSuchFile), .transport),
    ]
    for (error, kind) in cases {
      let failure = CourierError(
        asyncHTTPClientFailure: error, request: HTTPRequest(url: URL(string: "http://127.0.0.1/x")!))
      #expect(failure.kind == kind, "\(error)")
      #expect(failure.request?.path == "/x")
      #expect(failure.underlyingError != nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aCourierErrorPassesThroughUnchanged() {
    let original = CourierError(.decoding, "bad body")
    let failure = CourierError(asyncHTTPClientFailure: original, request: nil)
    #expect(failure.kind == .decoding)
    #expect(failure.detail == "bad body")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func advertisedCodingsFollowDecompression() async throws {
    #expect(AsyncHTTPClientTransport().supportedContentEncodings == ["gzip", "deflate"])
    #expect(AsyncHTTPClientTransport.Configuration().decompresses)
    let plain = AsyncHTTPClientTransport.Configuration(decompression: .disabled)
    #expect(!plain.decompresses)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: plain.httpClientConfiguration)
    let transport = AsyncHTTPClientTransport(client: client, configuration: plain)
    #expect(transport.supportedContentEncodings.isEmpty)
    let api = APIClient(baseURL: URL(string: "http://127.0.0.1:1")) { $0.transport = transport }
    #expect(try api.httpRequest(for: Endpoint<EmptyBody>.get("/")).headerFields[.acceptEncoding] == nil)
    try await client.shutdown()
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func withoutDecompressionTheServersCodingReachesTheCaller() async throws {
    let plain = AsyncHTTPClientTransport.Configuration(decompression: .disabled)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: plain.httpClientConfiguration)
    let transport = AsyncHTTPClientTransport(client: client, configuration: plain)
    try await withDemoServer(.asyncHTTPClient) { _, server in
      let api = APIClient(baseURL: server.baseURL) { $0.transport = transport }
      let echo = try await api.value(Endpoint<Echo>.get("/echo/plain"))
      #expect(echo.header("Accept-Encoding") == nil)
    }
    try await client.shutdown()
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func smallResponsesArriveBufferedAndLargerOnesStream() async throws {
    try await withDemoServer(.asyncHTTPClient) { client, server in
      let request = try client.httpRequest(for: Endpoint<Data>.get("/products").query(["limit": 50]))
      let (_, small) = try await server.transport.send(request, body: nil, options: TransportOptions())
      let buffered = try #require(small.bufferedData)
      #expect(buffered.count > 100)

      let streaming = AsyncHTTPClientTransport.Configuration(responseBufferingLimit: 100)
      let transport = AsyncHTTPClientTransport(
        client: (server.transport as? AsyncHTTPClientTransport)!.client, configuration: streaming)
      let (response, streamed) = try await transport.send(request, body: nil, options: TransportOptions())
      #expect(streamed.bufferedData == nil)
      #expect(streamed.length == Int64(buffered.count))
      #expect(response.headerFields[.contentLength] == "\(buffered.count)")
      #expect(try await streamed.collect() == buffered)
    }
  }

  /// With a start handler, a request without a body goes through AsyncHTTPClient's delegate API, which reports the
  /// request head written; its response body still streams with backpressure, byte for byte, to a slow reader.
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(.hangGuard) func aReportedRequestStreamsALargeBodyToASlowReader() async throws {
    try await withDemoServer(.asyncHTTPClient) { client, server in
      // Many times the transport's buffers: enough to need backpressure, small enough for a starved debug build.
      let bytes = 3_000_000
      let expected = try await client.downloadDigest(of: bytes)
      let request = try client.httpRequest(for: Endpoint<Data>.get("/download/\(bytes)"))
      let sent = Locked(0)
      var options = TransportOptions(timeout: 600)
      options.requestSent = { sent.withLock { $0 += 1 } }
      let (response, body) = try await server.transport.send(request, body: nil, options: options)
      #expect(sent.withLock { $0 } == 1, "the head was written once before the response arrived")
      #expect(response.status == .ok)
      var digest = SHA256()
      var count = 0
      var reads = 0
      for try await chunk in body {
        digest.update(data: chunk)
        count += chunk.count
        reads += 1
        if reads % 50 == 0 { try await Task.sleep(for: .milliseconds(5)) }
      }
      #expect(count == bytes)
      #expect(digest.finalize().map { String(format: "%02x", $0) }.joined() == expected)
    }
  }

  /// The transport's timeout covers the request until its response head, on the delegate path as on the other: a
  /// body that takes longer still arrives whole (Courier's own deadline decides how long a call may read).
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(.hangGuard) func aReportedRequestsTimeoutEndsWithTheHead() async throws {
    try await withDemoServer(.asyncHTTPClient) { client, server in
      // A body of 5 s at the server's rate, a timeout of 3 s: room for a loaded machine to see the head in time.
      let request = try client.httpRequest(for: Endpoint<Data>.get("/download/1500000").query(["rate": 300_000]))
      var options = TransportOptions(timeout: 3)
      options.requestSent = {}
      // A test process starved by the tests beside it may see the head after the timeout; only a head that arrived
      // in time makes a case, so those attempts are repeated.
      for _ in 0..<5 {
        let started = ContinuousClock.now
        let body: BodyStream
        do {
          (_, body) = try await server.transport.send(request, body: nil, options: options)
        } catch let error as CourierError where error.kind == .timeout {
          continue
        }
        var count = 0
        for try await chunk in body { count += chunk.count }
        #expect(count == 1_500_000)
        #expect(ContinuousClock.now - started > .seconds(3.5), "the body took longer than the timeout")
        return
      }
      Issue.record("the head never arrived within the timeout")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aReportedRequestThatIsCancelledWhileItsBodyArrivesStops() async throws {
    try await withDemoServer(.asyncHTTPClient) { client, server in
      let request = try client.httpRequest(for: Endpoint<Data>.get("/download/400000000").query(["rate": 2_000_000]))
      var options = TransportOptions(timeout: 600)
      options.requestSent = {}
      let reading = Task {
        let (_, body) = try await server.transport.send(request, body: nil, options: options)
        var count = 0
        for try await chunk in body { count += chunk.count }
        return count
      }
      try await Task.sleep(for: .milliseconds(300))
      reading.cancel()
      let error = await #expect(throws: CourierError.self) { try await reading.value }
      #expect(error?.kind == .cancelled)
    }
  }

  /// A file body is read with NIO's file system into the buffers AsyncHTTPClient writes; a file that changed size
  /// since the body was made fails the call as the body's own chunks would, and the server never sees a short body
  /// as complete.
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(.hangGuard) func aFileThatChangedSizeFailsTheUpload() async throws {
    try await withDemoServer(.asyncHTTPClient) { client, server in
      let request = try client.httpRequest(for: Endpoint<Data>.post("/upload/raw"))
      for newSize in [1_000, 3_000_000] {
        let file = try temporaryFile(Data(repeating: 7, count: 2_000_000))
        defer { removeTemporaryFile(file) }
        let body = try BodyStream.file(at: file)
        try Data(repeating: 8, count: newSize).write(to: file)
        let error = await #expect(throws: CourierError.self) {
          try await server.transport.send(request, body: body, options: TransportOptions(timeout: 600))
        }
        #expect(error?.kind == .invalidRequest, "\(newSize) bytes: \(String(describing: error))")
        #expect(error?.detail.contains(file.path) == true)
      }
    }
  }

  /// A streamed body hands over about a MiB and then waits while its event loops are busy: AsyncHTTPClient queues a
  /// write per buffer without waiting for the loop, so a body that did not wait would be read out whole into that
  /// queue. Chunks of a stream and buffers of a file alike.
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(.hangGuard, arguments: [false, true])
  func aStreamedBodyWaitsForBusyEventLoops(fromFile: Bool) async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let chunk = Data(repeating: 7, count: 64 * 1024)
    let total = 64 * chunk.count
    let file = try temporaryFile(Data(repeating: 7, count: total))
    defer { removeTemporaryFile(file) }
    let body: HTTPClientRequest.Body
    if fromFile {
      body = .courier(try BodyStream.file(at: file), writtenBy: group)
    } else {
      let chunks = AsyncStream<Data> { continuation in
        for _ in 0..<64 { continuation.yield(chunk) }
        continuation.finish()
      }
      body = .courier(BodyStream(chunks, length: Int64(total)), writtenBy: group)
    }
    actor Tally {
      var bytes = 0
      @available(macOS 14, iOS 17, tvOS 17, *)
      func add(_ count: Int) { bytes += count }
    }
    let handed = Tally()
    let busy = DispatchSemaphore(value: 0)
    group.next().execute { busy.wait() }
    let reader = Task {
      // AsyncHTTPClient's own way of reading a request body.
      for try await buffer in body { await handed.add(buffer.readableBytes) }
    }
    // It reads up to the stride without waiting (the time limit fails a body that never gets there), then waits.
    while await handed.bytes < EventLoopQueues.stride { try await Task.sleep(for: .milliseconds(10)) }
    try await Task.sleep(for: .milliseconds(300))
    let whileBusy = await handed.bytes
    #expect(whileBusy <= EventLoopQueues.stride + 512 * 1024, "\(whileBusy) bytes handed over while the loop was busy")
    busy.signal()
    try await reader.value
    #expect(await handed.bytes == total)
    try await group.shutdownGracefully()
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aBodyCutShortByCancellationThrowsInsteadOfEnding() async throws {
    let request = HTTPRequest(url: URL(string: "http://127.0.0.1/x")!)
    @available(macOS 14, iOS 17, tvOS 17, *)
    func chunks() -> ResponseBodyChunks {
      ResponseBodyChunks(.bytes(ByteBuffer(string: "complete")), request: request, response: HTTPResponse(status: .ok))
    }
    #expect(try await chunks().collect() == Data("complete".utf8))
    let cancelled = Task {
      while !Task.isCancelled { await Task.yield() }
      return try await chunks().collect()
    }
    cancelled.cancel()
    let error = await #expect(throws: CourierError.self) { try await cancelled.value }
    #expect(error?.kind == .cancelled)
    #expect(error?.response?.status == .ok)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func largeChunksAreSharedAndSmallOnesCopiedWithTheSameBytes() {
    for size in [0, 10, 16 * 1024 - 1, 16 * 1024, 200_000] {
      var buffer = ByteBuffer(bytes: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
      buffer.moveReaderIndex(forwardBy: min(size, 3))
      let expected = Data(buffer.readableBytesView)
      #expect(ResponseBodyChunks.AsyncIterator.data(sharing: buffer) == expected, "\(size) bytes")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func whatIsReadWhole() {
    func readsWhole(_ status: HTTPResponse.Status, _ fields: HTTPFields, method: HTTPRequest.Method = .get) -> Bool {
      AsyncHTTPClientTransport.readsWhole(
        HTTPResponse(status: status, headerFields: fields), method: method, limit: 1000)
    }
    #expect(readsWhole(.ok, [.contentLength: "1000"]))
    #expect(!readsWhole(.ok, [.contentLength: "1001"]))
    #expect(!readsWhole(.ok, [:]))
    #expect(!readsWhole(.ok, [.contentLength: "-1"]))
    #expect(readsWhole(.ok, [.contentLength: "5000"], method: .head))
    #expect(readsWhole(.noContent, [:]))
    #expect(readsWhole(.notModified, [:]))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func theBodyLengthComesFromTheHead() {
    func length(
      _ status: HTTPResponse.Status, _ fields: HTTPFields, method: HTTPRequest.Method = .get,
      decompresses: Bool = true
    ) -> Int64? {
      AsyncHTTPClientTransport.bodyLength(
        of: HTTPResponse(status: status, headerFields: fields), method: method,
        decompresses: decompresses)
    }
    #expect(length(.ok, [.contentLength: "1024"]) == 1024)
    #expect(length(.ok, [:]) == nil)
    #expect(length(.ok, [.contentLength: "nope"]) == nil)
    #expect(length(.ok, [.contentLength: "1024"], method: .head) == 0)
    #expect(length(.noContent, [:]) == 0)
    #expect(length(.notModified, [.contentLength: "10"]) == 0)
    #expect(length(.ok, [.contentLength: "10", .contentEncoding: "gzip"]) == nil)
    #expect(length(.ok, [.contentLength: "10", .contentEncoding: "gzip"], decompresses: false) == 10)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func timeIntervalsBecomeDeadlinesThatFit() {
    #expect(TimeAmount(seconds: 1.5) == .milliseconds(1500))
    #expect(TimeAmount(seconds: -3) == .zero)
    #expect(TimeAmount(seconds: .nan) == .zero)
    #expect(NIODeadline.after(seconds: .infinity) == .distantFuture)
    #expect(NIODeadline.after(seconds: 1e300) == .distantFuture)
    let before = NIODeadline.now()
    let deadline = NIODeadline.after(seconds: 10)
    let after = NIODeadline.now()
    #expect(deadline >= before + .seconds(10) && deadline <= after + .seconds(10))
  }
}
