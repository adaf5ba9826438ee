import Foundation
import Testing

@testable import CourierDemoServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads over real sockets: errors after a streamed body, and how bodies were framed.
@Suite struct UploadLiveTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func truncatedUploadIs400AfterTheBody() async throws {
    try await TestSupport.withLiveServer { server in
      let body = RawHTTPClient.Body(
        prefix: Array("--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f\"\r\n\r\n".utf8),
        patternLength: 2_000_000
      )
      let response = try await RawHTTPClient(port: server.port).send(
        "POST",
        "/upload",
        headers: ["Content-Type": "multipart/form-data; boundary=b"],
        body: body
      )
      #expect(response.status == 400)
      let error = try JSONDecoder().decode(ErrorBody.self, from: Data(response.body))
      #expect(error.code == "invalid_multipart")
      #expect(error.error.contains("closing delimiter"))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func rawUploadTellsChunkedFromContentLength() async throws {
    try await TestSupport.withLiveServer { server in
      let client = RawHTTPClient(port: server.port)
      let body = RawHTTPClient.Body(patternLength: 1_000_000)
      let digest = await DownloadDigests.shared.digest(length: 1_000_000)
      let sized = try await client.send("PUT", "/upload/raw", body: body, framing: .contentLength)
      #expect(
        try JSONDecoder().decode(RawUploadReport.self, from: Data(sized.body))
          == RawUploadReport(
            size: 1_000_000, sha256: digest, contentType: nil, chunked: false, contentLength: 1_000_000)
      )
      let chunked = try await client.send(
        "POST",
        "/upload/raw",
        headers: ["Content-Type": "application/octet-stream"],
        body: body,
        framing: .chunked
      )
      #expect(
        try JSONDecoder().decode(RawUploadReport.self, from: Data(chunked.body))
          == RawUploadReport(
            size: 1_000_000, sha256: digest, contentType: "application/octet-stream", chunked: true, contentLength: nil
          )
      )
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func urlSessionFramesDataAndStreamsDifferently() async throws {
    try await TestSupport.withLiveServer { server in
      let url = try TestSupport.url("/upload/raw", on: server)
      let payload = Data(TransferTestSupport.pattern(70_000))
      var sized = URLRequest(url: url)
      sized.httpMethod = "POST"
      sized.httpBody = payload
      let sizedOutcome = await SessionRecorder.run(sized)
      let sizedReport = try JSONDecoder().decode(RawUploadReport.self, from: sizedOutcome.data)
      #expect(sizedReport.chunked == false)
      #expect(sizedReport.contentLength == 70_000)
      #expect(sizedReport.sha256 == TransferTestSupport.sha256(payload))

      var streamed = URLRequest(url: url)
      streamed.httpMethod = "PUT"
      streamed.httpBodyStream = InputStream(data: payload)
      let streamedOutcome = await SessionRecorder.run(streamed)
      let streamedReport = try JSONDecoder().decode(RawUploadReport.self, from: streamedOutcome.data)
      #expect(streamedReport.chunked == true)
      #expect(streamedReport.contentLength == nil)
      #expect(streamedReport.size == 70_000)
      #expect(streamedReport.sha256 == sizedReport.sha256)
    }
  }
}
