import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierDemoServer
import Foundation
import HTTPTypes
import Testing

/// The transports every end-to-end test runs over, so that the two never drift apart.
public enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case urlSession
  case asyncHTTPClient

  /// The name tests show for this kind.
  public var testDescription: String { rawValue }

  /// A new transport of this kind, and what to run when the test is done with it. An AsyncHTTPClient transport
  /// gets its own `HTTPClient` (never `.shared`), so tests share no connections.
  public func makeTransport() -> (transport: any HTTPTransport, shutdown: @Sendable () async throws -> Void) {
    switch self {
    case .urlSession:
      return (URLSessionTransport(), {})
    case .asyncHTTPClient:
      // AsyncHTTPClient counts a wait for one of its pool's connections against the connect timeout: ten minutes, so
      // that a busy machine's calls queued behind a full pool end only by their own deadlines.
      let configuration = AsyncHTTPClientTransport.Configuration(connectTimeout: 600)
      let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration.httpClientConfiguration)
      return (AsyncHTTPClientTransport(client: client, configuration: configuration), { try await client.shutdown() })
    }
  }
}

/// Runs `body` with a new transport of `kind`, and shuts the transport down afterwards, also when `body` throws.
public func withTransport<Result>(
  _ kind: TransportKind,
  _ body: (any HTTPTransport) async throws -> Result
) async throws -> Result {
  let (transport, shutdown) = kind.makeTransport()
  let result: Result
  do {
    result = try await body(transport)
  } catch {
    try await shutdown()
    throw error
  }
  try await shutdown()
  return result
}

/// The running demo API of one test and the transport the test uses.
public struct DemoServerFixture: Sendable {
  /// Where the demo API listens on 127.0.0.1.
  public let baseURL: URL
  /// The test's transport; every client a test makes goes through it.
  public let transport: any HTTPTransport

  /// A new client for the demo API over the test's transport, with nothing else configured unless `configure`
  /// says so — but for its timeout: ten minutes, so that a call a busy machine keeps waiting is never cut short by
  /// the clock. A test of timeouts sets its own, on the endpoint or in `configure`; a test that hangs meets its time
  /// limit first.
  public func client(_ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
    var configuration = APIClient.Configuration(baseURL: baseURL, transport: transport)
    configuration.timeout = 600
    configure(&configuration)
    return APIClient(configuration: configuration)
  }
}

/// Starts the demo API on 127.0.0.1 with a free port for one test, hands `body` a client over a new transport of
/// `kind` (with ``DemoError`` as its server error type), and stops both afterwards.
@available(macOS 14, iOS 17, tvOS 17, *)
public func withDemoServer(
  _ kind: TransportKind,
  _ configure: (inout APIClient.Configuration) -> Void = { _ in },
  _ body: (APIClient, DemoServerFixture) async throws -> Void
) async throws {
  let server = try await DemoServer().start(host: "127.0.0.1", port: 0)
  do {
    try await withTransport(kind) { transport in
      let fixture = DemoServerFixture(baseURL: server.baseURL, transport: transport)
      let client = fixture.client {
        $0.serverErrorType = DemoError.self
        configure(&$0)
      }
      try await body(client, fixture)
    }
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
}

/// Starts the demo API on 127.0.0.1 at a free port, hands `body` its base URL, and stops it afterwards, also when
/// `body` throws.
@available(macOS 14, iOS 17, tvOS 17, *)
public func withDemoServer(_ body: (URL) async throws -> Void) async throws {
  let server = try await DemoServer().start(host: "127.0.0.1", port: 0)
  do {
    try await body(server.baseURL)
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
}
