import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// A body cut short of its `Content-Length` is a lost connection, retryable for idempotent requests, with the
/// response head kept, on every transport.
@Suite(.hangGuard) struct TruncatedBodyTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aBodyCutShortIsAConnectionLostWithTheHeadKept(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.send(
          Endpoint<Data>.get("/download/200000/drop").query("key", "truncated-\(transport)").query("after", 1000))
      }
      #expect(error?.kind == .connectionLost, "\(String(describing: error))")
      #expect(error?.isRetryable == true)
      #expect(error?.status == .ok)
      #expect(error?.response?.headerFields[.contentLength] == "200000")
    }
  }
}
