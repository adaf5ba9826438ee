import Foundation
import Testing

@testable import CourierDemoServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `/flaky/{key}` over real sockets: what URLSession sees when the server fails or drops the connection.
@Suite struct FlakyLiveTests {
  /// Sends a request with a fresh session (so no pooled connection is reused) and returns the `URLError` it fails
  /// with, recording an issue when it does not fail that way.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func transportError(_ url: URL, method: String = "GET", body: Data? = nil) async -> URLError? {
    await #expect(throws: URLError.self) {
      _ = try await LiveServerTests.fetch(url, method: method, body: body)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func resetIsConnectionLostThenSucceeds() async throws {
    try await TestSupport.withLiveServer { server in
      let url = try TestSupport.url("/flaky/live?mode=reset&failures=2", on: server)
      for _ in 0..<2 {
        let error = await Self.transportError(url)
        // libcurl: "Recv failure: Connection reset by peer" (CURLE_RECV_ERROR).
        #expect(error?.code == .networkConnectionLost)
      }
      let (status, body, _) = try await LiveServerTests.fetch(url)
      #expect(status == 200)
      #expect(try JSONDecoder().decode(FlakyAttempts.self, from: body) == FlakyAttempts(key: "live", attempts: 3))
      // The server survived the resets.
      let (productStatus, _, _) = try await LiveServerTests.fetch(try TestSupport.url("/products/1", on: server))
      #expect(productStatus == 200)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func resetWorksForPostPutAndHead() async throws {
    try await TestSupport.withLiveServer { server in
      let url = try TestSupport.url("/flaky/methods?mode=reset&failures=3", on: server)
      let body = Data(#"{"payload":"\#(String(repeating: "x", count: 200_000))"}"#.utf8)
      #expect(await Self.transportError(url, method: "POST", body: body)?.code == .networkConnectionLost)
      #expect(await Self.transportError(url, method: "PUT", body: Data("{}".utf8))?.code == .networkConnectionLost)
      #expect(await Self.transportError(url, method: "HEAD")?.code == .networkConnectionLost)
      let (status, data, _) = try await LiveServerTests.fetch(url, method: "POST", body: body)
      #expect(status == 200)
      #expect(try JSONDecoder().decode(FlakyAttempts.self, from: data).attempts == 4)
      let (headStatus, headBody, _) = try await LiveServerTests.fetch(url, method: "HEAD")
      #expect(headStatus == 200)
      #expect(headBody.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func statusFailureWithRetryAfterDateOverTheWire() async throws {
    try await TestSupport.withLiveServer { server in
      let url = try TestSupport.url("/flaky/wire?failures=1&status=429&retryAfterDate=60", on: server)
      let sent = Date()
      let (status, body, response) = try await LiveServerTests.fetch(url)
      let received = Date()
      #expect(status == 429)
      #expect(try JSONDecoder().decode(ErrorBody.self, from: body).code == "too_many_requests")
      let header = try #require(response.value(forHTTPHeaderField: "Retry-After"))
      let date = try #require(FlakyTests.parseHTTPDate(header))
      // The whole second at or after 60 s from when the server answered, which was between sending and receiving.
      #expect(date >= sent.addingTimeInterval(60) && date <= received.addingTimeInterval(61))
      let (retryStatus, _, retryResponse) = try await LiveServerTests.fetch(url)
      #expect(retryStatus == 200)
      #expect(retryResponse.value(forHTTPHeaderField: "Retry-After") == nil)
    }
  }
}
