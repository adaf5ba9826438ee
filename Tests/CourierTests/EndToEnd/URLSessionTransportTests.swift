import CourierTestSupport
import Dispatch
import Foundation
import HTTPTypes
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What only the URLSession transport has: which bodies it hands on whole, and (on Linux) the queue its session's
/// delegate runs on.
@Suite(.hangGuard) struct URLSessionTransportTests {
  /// Sends `GET path` straight to a new transport, with the options a buffered call (or, `incremental`, a streaming
  /// one) gives it.
  func send(
    _ path: String, to baseURL: URL, incremental: Bool = false, limit: Int? = 50 << 20
  ) async throws -> (HTTPResponse, BodyStream) {
    let transport = URLSessionTransport()
    // No case here is about the timeout: one that a busy machine never meets.
    var options = TransportOptions(timeout: 600)
    options.deliversBodyIncrementally = incremental
    options.maxResponseBytes = incremental ? nil : limit
    let request = HTTPRequest(method: .get, url: URL(string: path, relativeTo: baseURL)!.absoluteURL)
    return try await transport.send(request, body: nil, options: options)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aSmallBodyOfKnownLengthIsHandedOnWhole() async throws {
    try await withDemoServer { baseURL in
      let (response, body) = try await send("download/1000", to: baseURL)
      #expect(response.status == .ok)
      #expect(body.bufferedData?.count == 1000)
      #expect(try await body.collect().count == 1000)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func anEmptyBodyIsHandedOnWhole() async throws {
    try await withDemoServer { baseURL in
      let (_, body) = try await send("download/0", to: baseURL)
      #expect(body.bufferedData == Data())
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aBodyReadAsItArrivesIsStreamed() async throws {
    try await withDemoServer { baseURL in
      let (_, body) = try await send("download/1000", to: baseURL, incremental: true)
      #expect(body.bufferedData == nil)
      #expect(try await body.collect().count == 1000)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aBodyWithoutALengthIsStreamed() async throws {
    try await withDemoServer { baseURL in
      let (response, body) = try await send("stream/lines?count=3&delay=10", to: baseURL)
      #expect(response.headerFields[.contentLength] == nil)
      #expect(body.bufferedData == nil)
      #expect(String(decoding: try await body.collect(), as: UTF8.self).split(separator: "\n").count == 3)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aBodyOverTheWholeLimitIsStreamed() async throws {
    let bytes = StreamingCall.wholeBodyLimit + 1
    try await withDemoServer { baseURL in
      let (_, body) = try await send("download/\(bytes)", to: baseURL)
      #expect(body.bufferedData == nil)
      #expect(try await body.collect().count == bytes)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aBodyOverTheCallsLimitIsStreamedAndRefusedAsItIsRead() async throws {
    try await withDemoServer { baseURL in
      let (response, body) = try await send("download/1000", to: baseURL, limit: 100)
      #expect(response.status == .ok)
      #expect(body.bufferedData == nil)
      let error = await #expect(throws: CourierError.self) { try await body.collect() }
      #expect(error?.kind == .responseTooLarge)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aWholeBodyCutShortFailsWithItsHead() async throws {
    try await withDemoServer { baseURL in
      // The demo server declares 100,000 bytes and resets the connection after 1,000.
      let error = await #expect(throws: CourierError.self) {
        _ = try await send("download/100000/drop?key=whole&after=1000", to: baseURL)
      }
      #expect(error?.kind == .connectionLost)
      #expect(error?.response?.status == .ok)
    }
  }

  #if canImport(FoundationNetworking)
  @Test func theDelegateQueueRunsBlocksOnceEachInOrder() async throws {
    let queue = DelegateQueue()
    let order = Locked<[Int]>([])
    for index in 0..<1000 {
      queue.addOperation { order.withLock { $0.append(index) } }
    }
    try await waitUntil("the queue ran every block") { order.withLock { $0.count } >= 1000 }
    #expect(order.withLock { $0 } == Array(0..<1000))
  }
  #endif
}
