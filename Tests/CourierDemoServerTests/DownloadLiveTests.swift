import Foundation
import Testing

@testable import CourierDemoServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `/download` over real sockets with URLSession: whole bodies, resuming after a dropped connection, throttling.
@Suite struct DownloadLiveTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func wholeBodyAndDigest() async throws {
    try await TestSupport.withLiveServer { server in
      let (status, body, response) = try await LiveServerTests.fetch(
        try TestSupport.url("/download/300000", on: server))
      #expect(status == 200)
      #expect(body.count == 300_000)
      #expect(Array(body) == TransferTestSupport.pattern(300_000))
      #expect(response.value(forHTTPHeaderField: "Content-Length") == "300000")
      #expect(response.value(forHTTPHeaderField: "ETag") == #""dl-300000""#)
      #expect(response.value(forHTTPHeaderField: "Accept-Ranges") == "bytes")
      let (_, digest, _) = try await LiveServerTests.fetch(try TestSupport.url("/download/sha256/300000", on: server))
      #expect(try JSONDecoder().decode(DownloadDigest.self, from: digest).sha256 == TransferTestSupport.sha256(body))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func rangeOverTheWire() async throws {
    try await TestSupport.withLiveServer { server in
      var request = URLRequest(url: try TestSupport.url("/download/100000", on: server))
      request.setValue("bytes=-1000", forHTTPHeaderField: "Range")
      let outcome = await SessionRecorder.run(request)
      #expect(outcome.error == nil)
      #expect(outcome.response?.statusCode == 206)
      #expect(outcome.response?.value(forHTTPHeaderField: "Content-Range") == "bytes 99000-99999/100000")
      #expect(Array(outcome.data) == TransferTestSupport.pattern(1_000, from: 99_000))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func droppedDownloadResumesWithRange() async throws {
    try await TestSupport.withLiveServer { server in
      let url = try TestSupport.url("/download/1000000/drop?key=resume&after=300000", on: server)
      let first = await SessionRecorder.run(URLRequest(url: url))
      // libcurl: "Recv failure: Connection reset by peer" (CURLE_RECV_ERROR) after the 300 000 bytes arrived.
      #expect(first.error?.code == .networkConnectionLost)
      #expect(first.response?.statusCode == 200)
      #expect(first.response?.value(forHTTPHeaderField: "Content-Length") == "1000000")
      // Every one of the 300 000 bytes: the server resets the connection only once the client acknowledged them.
      #expect(first.byteCount == 300_000)
      #expect(first.data == Data(TransferTestSupport.pattern(first.byteCount)))

      var resume = URLRequest(url: url)
      resume.setValue("bytes=\(first.byteCount)-", forHTTPHeaderField: "Range")
      resume.setValue(#""dl-1000000""#, forHTTPHeaderField: "If-Range")
      let second = await SessionRecorder.run(resume)
      #expect(second.error == nil)
      #expect(second.response?.statusCode == 206)
      #expect(second.response?.value(forHTTPHeaderField: "Content-Range") == "bytes \(first.byteCount)-999999/1000000")
      #expect(first.byteCount + second.byteCount == 1_000_000)
      #expect(second.data == Data(TransferTestSupport.pattern(second.byteCount, from: Int64(first.byteCount))))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func dropBeforeAnyBodyByte() async throws {
    try await TestSupport.withLiveServer { server in
      let url = try TestSupport.url("/download/5000/drop?key=zero&after=0", on: server)
      let first = await SessionRecorder.run(URLRequest(url: url))
      #expect(first.error?.code == .networkConnectionLost)
      #expect(first.byteCount == 0)
      let (status, body, _) = try await LiveServerTests.fetch(url)
      #expect(status == 200)
      #expect(body.count == 5_000)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func rateLimitsTheTransfer() async throws {
    try await TestSupport.withLiveServer { server in
      let clock = ContinuousClock()
      let start = clock.now
      let (status, body, _) = try await LiveServerTests.fetch(
        try TestSupport.url("/download/100000?rate=200000", on: server))
      #expect(status == 200)
      #expect(body.count == 100_000)
      // 20 000-byte writes every 100 ms: the last one leaves 400 ms in.
      #expect(clock.now - start >= .milliseconds(380))
    }
  }
}
