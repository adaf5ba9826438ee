import Courier
import CourierDemoServer
import Foundation
import HTTPTypes

/// Starts the demo API on 127.0.0.1 with a free port for one test, and stops it afterwards.
func withDemoServer(
  _ configure: (inout APIClient.Configuration) -> Void = { _ in },
  _ body: (APIClient, URL) async throws -> Void
) async throws {
  let server = try await DemoServer().start(host: "127.0.0.1", port: 0)
  do {
    var configuration = APIClient.Configuration(baseURL: server.baseURL, transport: URLSessionTransport())
    configuration.serverErrorType = DemoError.self
    configure(&configuration)
    try await body(APIClient(configuration: configuration), server.baseURL)
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
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
