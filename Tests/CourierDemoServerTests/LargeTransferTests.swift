import Foundation
import Testing

@testable import CourierDemoServer

/// Large transfers over real sockets, one at a time (they keep a core busy hashing in a debug build): parts are
/// streamed, and the server (in this process) never holds a whole body.
@Suite(.serialized) struct LargeTransferTests {
  /// How much the resident set may grow over the transfers.
  static let allowedGrowth = 64 << 20

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func fiftyMegabytePartIsStreamed() async throws {
    let size: Int64 = 50_000_000
    var head = FormBuilder(boundary: "live-boundary")
    head.field("description", "fifty megabytes")
    let prefix =
      head.bytes
      + Array(
        "--live-boundary\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n\r\n".utf8
      )
    let body = RawHTTPClient.Body(prefix: prefix, patternLength: size, suffix: Array("\r\n--live-boundary--\r\n".utf8))
    let expected = await DownloadDigests.shared.digest(length: size)
    try await TestSupport.withLiveServer { [head] server in
      let response = try await RawHTTPClient(port: server.port).send(
        "POST",
        "/upload",
        headers: ["Content-Type": head.contentType],
        body: body,
        framing: .chunked
      )
      #expect(response.status == 200)
      let report = try JSONDecoder().decode(UploadReport.self, from: Data(response.body))
      #expect(report.totalBytes == body.length)
      #expect(report.parts.count == 2)
      #expect(report.parts[0].value == "fifty megabytes")
      #expect(report.parts[1].name == "big")
      #expect(report.parts[1].filename == "big.bin")
      #expect(report.parts[1].size == size)
      #expect(report.parts[1].sha256 == expected)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(.enabled(if: TransferTestSupport.residentBytes() != nil, "needs /proc/self/status"))
  func twoHundredMegabytesUpAndDown() async throws {
    let size: Int64 = 200_000_000
    try await TestSupport.withLiveServer { server in
      let client = RawHTTPClient(port: server.port)
      let prefix = Array("--m\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n\r\n".utf8)
      @available(macOS 14, iOS 17, tvOS 17, *)
      func upload(_ length: Int64) async throws -> UploadReport {
        let body = RawHTTPClient.Body(prefix: prefix, patternLength: length, suffix: Array("\r\n--m--\r\n".utf8))
        let response = try await client.send(
          "POST",
          "/upload",
          headers: ["Content-Type": "multipart/form-data; boundary=m"],
          body: body
        )
        return try JSONDecoder().decode(UploadReport.self, from: Data(response.body))
      }
      @available(macOS 14, iOS 17, tvOS 17, *)
      func download(_ length: Int64) async throws -> RawHTTPClient.Response {
        try await client.send("GET", "/download/\(length)", keepBody: 0, patternOffset: 0)
      }
      // Warm up: the first transfers allocate buffers that stay around.
      _ = try await upload(5_000_000)
      _ = try await download(5_000_000)
      let before = try #require(TransferTestSupport.residentBytes())

      let report = try await upload(size)
      #expect(report.parts.first?.size == size)
      let downloaded = try await download(size)
      #expect(downloaded.status == 200)
      #expect(downloaded.bodyLength == size)
      #expect(downloaded.matchesPattern)

      let after = try #require(TransferTestSupport.residentBytes())
      #expect(after - before < Self.allowedGrowth, "resident memory grew by \((after - before) >> 20) MiB")
    }
  }
}
