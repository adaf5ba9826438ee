import Courier
import CourierStyles
import Foundation
import HTTPTypes

struct Credentials: Codable, Sendable {
  var email: String
  var password: String
}

struct Tokens: Decodable, Sendable {
  var accessToken: String
  var refreshToken: String
  var tokenType: String
  var expiresIn: Int
}

struct User: Decodable, Sendable {
  var id: Int
  var email: String
  var name: String
  var createdAt: Date
}

struct Signup: Encodable, Sendable {
  var email: String
  var password: String
  var name: String
}

struct Product: Decodable, Sendable {
  var id: Int
  var name: String
  var category: String
  var price: Double
}

struct ProductPage: Decodable, Sendable {
  var items: [Product]
  var total: Int
  var page: Int
  var limit: Int
  var hasMore: Bool
}

struct ProductFilter: Encodable, Sendable {
  var category: String?
  var minPrice: Double?
  var maxPrice: Double?
  var sort: String?
  var page: Int
  var limit: Int

  func page(_ number: Int) -> ProductFilter {
    var copy = self
    copy.page = number
    return copy
  }
}

struct Echo: Decodable, Sendable {
  var method: String
  var path: String
  var rawQuery: String?
  var query: [[String]]
  var headers: [[String]]
}

/// The demo API's error body: `{"code": "...", "error": "..."}`.
struct DemoAPIError: ServerErrorResponse {
  var code: String
  var error: String
  var errorMessage: String? { error }
}

/// A small API described as an enum.
enum ShopAPI: EndpointConvertible {
  case product(id: Int)
  case products(category: String)

  var path: String {
    switch self {
    case .product(let id): "/products/\(id)"
    case .products: "/products"
    }
  }

  var query: Query {
    switch self {
    case .product: [:]
    case .products(let category): ["category": .string(category)]
    }
  }
}
