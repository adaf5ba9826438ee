import Courier
import CourierDemoServer
import CourierTestSupport
import Foundation
import Testing

/// A connection that cannot be made is reported at once, not when the timeout runs out, on every transport.
@Suite(.timeLimit(.minutes(1))) struct ConnectionFailureTests {
  /// The URL of a port on 127.0.0.1 that nothing listens on: a demo server's, after it stopped.
  static func closedPortURL() async throws -> URL {
    let server = try await DemoServer().start(host: "127.0.0.1", port: 0)
    let url = server.baseURL
    await server.stop()
    return url
  }

  @Test(arguments: TransportKind.allCases)
  func aRefusedConnectionIsNoConnectionWithinASecond(_ transport: TransportKind) async throws {
    let url = try await Self.closedPortURL()
    try await withTransport(transport) { transport in
      let client = APIClient(baseURL: url) { $0.transport = transport }
      let stopwatch = Stopwatch()
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<Empty>.get("/products").timeout(30))
      }
      #expect(error?.kind == .noConnection, "\(String(describing: error))")
      #expect(error?.isRetryable == true)
      #expect(stopwatch.elapsed < 20, "reported after \(stopwatch.elapsed) s")
    }
  }

  @Test(arguments: TransportKind.allCases)
  func tlsToAPlainHTTPServerFailsAtOnce(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, server in
      var components = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
      components.scheme = "https"
      let stopwatch = Stopwatch()
      let error = await #expect(throws: CourierError.self) {
        try await client.send(
          Endpoint<Empty>.get(components.url!.appendingPathComponent("products").absoluteString).timeout(30))
      }
      #expect(error?.kind == .tls, "\(String(describing: error))")
      #expect(stopwatch.elapsed < 20, "reported after \(stopwatch.elapsed) s")
    }
  }
}
