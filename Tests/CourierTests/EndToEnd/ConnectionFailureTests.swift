import Courier
import CourierDemoServer
import CourierTestSupport
import Foundation
import Testing

/// A connection that cannot be made is reported at once, not when the timeout runs out, on every transport.
@Suite(.hangGuard) struct ConnectionFailureTests {
  @Test(arguments: TransportKind.allCases)
  func aRefusedConnectionIsNoConnectionWithinASecond(_ transport: TransportKind) async throws {
    let closed = try ClosedPort()
    try await withTransport(transport) { transport in
      let client = APIClient(baseURL: closed.baseURL) { $0.transport = transport }
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<EmptyBody>.get("/products").timeout(600))
      }
      #expect(error?.kind == .noConnection, "\(String(describing: error))")
      #expect(error?.isRetryable == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func tlsToAPlainHTTPServerFailsAtOnce(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, server in
      var components = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
      components.scheme = "https"
      let error = await #expect(throws: CourierError.self) {
        try await client.send(
          Endpoint<EmptyBody>.get(components.url!.appendingPathComponent("products").absoluteString).timeout(600))
      }
      #expect(error?.kind == .tls, "\(String(describing: error))")
    }
  }
}
