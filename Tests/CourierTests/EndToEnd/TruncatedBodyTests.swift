import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// A body cut short of its `Content-Length` is a lost connection, retryable for idempotent requests, on every
/// transport. AsyncHTTPClient keeps the response head in the error; URLSession's buffered data task on Linux reports
/// the failure without the head it had read.
@Suite(.timeLimit(.minutes(1))) struct TruncatedBodyTests {
  @Test(arguments: TransportKind.allCases)
  func aBodyCutShortIsAConnectionLostWithTheHeadKept(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.send(
          Endpoint<Data>.get("/download/200000/drop").query("key", "truncated-\(transport)").query("after", 1000))
      }
      #expect(error?.kind == .connectionLost, "\(String(describing: error))")
      #expect(error?.isRetryable == true)
      if transport == .asyncHTTPClient {
        #expect(error?.status == .ok)
        #expect(error?.response?.headerFields[.contentLength] == "200000")
      }
    }
  }
}
