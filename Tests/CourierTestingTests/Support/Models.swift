import Courier
import Foundation

struct User: Codable, Sendable, Equatable {
  var id: Int
  var name: String
}

struct Post: Codable, Sendable, Equatable {
  var id: Int
  var title: String
  var body: String
}

struct NewPost: Codable, Sendable, Equatable {
  var title: String
  var body: String
}

/// The demo API's error body.
struct DemoError: ServerErrorResponse, Codable, Equatable {
  var code: String
  var error: String
  var errorMessage: String? { error }
}

struct Tokens: Codable, Sendable, Equatable {
  var accessToken: String
  var refreshToken: String
  var tokenType: String
  var expiresIn: Int
}

struct Login: Codable, Sendable {
  var email = "demo@courier.dev"
  var password = "secret123"
}

struct DemoUser: Codable, Sendable, Equatable {
  var id: Int
  var email: String
  var name: String
}

struct Product: Codable, Sendable, Equatable {
  var id: Int
  var name: String
  var category: String
  var price: Double
}

struct ProductPage: Codable, Sendable, Equatable {
  var items: [Product]
  var total: Int
  var page: Int
  var hasMore: Bool
}

let exampleBaseURL = URL(string: "https://api.example.test/v1")!

/// A fresh temporary folder, removed by the caller.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-testing-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
