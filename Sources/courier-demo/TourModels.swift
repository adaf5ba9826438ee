import Courier
import CourierStyles
import Foundation
import HTTPTypes

@available(macOS 14, iOS 17, tvOS 17, *)
struct Credentials: Codable, Sendable {
  var email: String
  var password: String
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct Tokens: Decodable, Sendable {
  var accessToken: String
  var refreshToken: String
  var tokenType: String
  var expiresIn: Int
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct User: Decodable, Sendable {
  var id: Int
  var email: String
  var name: String
  var createdAt: Date
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct Signup: Encodable, Sendable {
  var email: String
  var password: String
  var name: String
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct Product: Decodable, Sendable {
  var id: Int
  var name: String
  var category: String
  var price: Double
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct ProductPage: Decodable, Sendable {
  var items: [Product]
  var total: Int
  var page: Int
  var limit: Int
  var hasMore: Bool
}

@available(macOS 14, iOS 17, tvOS 17, *)
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

@available(macOS 14, iOS 17, tvOS 17, *)
struct Echo: Decodable, Sendable {
  var method: String
  var path: String
  var rawQuery: String?
  var query: [[String]]
  var headers: [[String]]
}

/// The demo API's error body: `{"code": "...", "error": "..."}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DemoAPIError: ServerErrorResponse {
  var code: String
  var error: String
  var errorMessage: String? { error }
}

/// A small API described as an enum.
@available(macOS 14, iOS 17, tvOS 17, *)
enum ShopAPI: EndpointConvertible {
  case product(id: Int)
  case products(category: String)

  var path: String {
    switch self {
    case .product(let id): "/products/\(id)"
    case .products: "/products"
    }
  }

  var query: QueryParameters {
    switch self {
    case .product: [:]
    case .products(let category): ["category": .string(category)]
    }
  }
}
