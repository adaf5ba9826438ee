import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierDemoServer
import Foundation
import HTTPTypes
import Testing

/// The transports every end-to-end test runs over, so that the two never drift apart.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case urlSession
  case asyncHTTPClient

  var testDescription: String { rawValue }

  /// A new transport of this kind, and what to run when the test is done with it. An AsyncHTTPClient transport
  /// gets its own `HTTPClient` (never `.shared`), so tests share no connections.
  func makeTransport() -> (transport: any HTTPTransport, shutdown: @Sendable () async throws -> Void) {
    switch self {
    case .urlSession:
      return (URLSessionTransport(), {})
    case .asyncHTTPClient:
      let configuration = AsyncHTTPClientTransport.Configuration()
      let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration.httpClientConfiguration)
      return (AsyncHTTPClientTransport(client: client, configuration: configuration), { try await client.shutdown() })
    }
  }
}

/// Runs `body` with a new transport of `kind`, and shuts the transport down afterwards, also when `body` throws.
func withTransport<Result>(
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
struct DemoServerFixture: Sendable {
  /// Where the demo API listens on 127.0.0.1.
  let baseURL: URL
  /// The test's transport; every client a test makes goes through it.
  let transport: any HTTPTransport

  /// A new client for the demo API over the test's transport, with nothing else configured unless `configure`
  /// says so.
  func client(_ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
    var configuration = APIClient.Configuration(baseURL: baseURL, transport: transport)
    configure(&configuration)
    return APIClient(configuration: configuration)
  }
}

/// Starts the demo API on 127.0.0.1 with a free port for one test, hands `body` a client over a new transport of
/// `kind` (with ``DemoError`` as its server error type), and stops both afterwards.
func withDemoServer(
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

/// The fixture's earlier form, over URLSession only, kept so tests written against it still build.
@available(*, deprecated, message: "take a TransportKind argument and pass it, so the test runs over every transport")
func withDemoServer(
  _ configure: (inout APIClient.Configuration) -> Void = { _ in },
  _ body: (APIClient, URL) async throws -> Void
) async throws {
  try await withDemoServer(.urlSession, configure) { client, server in try await body(client, server.baseURL) }
}

/// The demo API's error body.
struct DemoError: ServerErrorResponse, Equatable {
  var code: String
  var error: String
  var details: [String]?
  var errorMessage: String? { error }
}

struct Tokens: Codable, Sendable {
  var accessToken: String
  var refreshToken: String
  var tokenType: String
  var expiresIn: Int
}

struct Credentials: Codable, Sendable {
  var email = "demo@courier.dev"
  var password = "secret123"
}

struct DemoUser: Codable, Sendable, Equatable {
  var id: Int
  var email: String
  var name: String
  var createdAt: Date
}

struct Product: Codable, Sendable, Equatable {
  var id: Int
  var name: String
  var category: String
  var price: Double
  var tags: [String]
}

struct ProductPage: Codable, Sendable {
  var items: [Product]
  var total: Int
  var page: Int
  var limit: Int
  var hasMore: Bool
}

/// What `/echo/**` reports about the request it received.
struct Echo: Codable, Sendable {
  var method: String
  var path: String
  var rawQuery: String?
  var query: [[String]]
  var headers: [[String]]
  var body: String?
  var bodyLength: Int

  func header(_ name: String) -> String? {
    headers.first { $0.first?.lowercased() == name.lowercased() }?.last
  }

  var queryPairs: [(String, String)] { query.map { ($0[0], $0.count > 1 ? $0[1] : "") } }
}
