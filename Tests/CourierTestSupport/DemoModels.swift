import Courier
import Foundation

/// The demo API's error body.
public struct DemoError: ServerErrorResponse, Codable, Equatable {
  public var code: String
  public var error: String
  public var details: [String]?
  public var errorMessage: String? { error }

  public init(code: String, error: String, details: [String]? = nil) {
    self.code = code
    self.error = error
    self.details = details
  }
}

/// The demo API's token pair.
public struct Tokens: Codable, Sendable, Equatable {
  public var accessToken: String
  public var refreshToken: String
  public var tokenType: String
  public var expiresIn: Int

  public init(accessToken: String, refreshToken: String, tokenType: String, expiresIn: Int) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.tokenType = tokenType
    self.expiresIn = expiresIn
  }
}

/// The demo account's login.
public struct Credentials: Codable, Sendable {
  public var email = "demo@courier.dev"
  public var password = "secret123"

  public init(email: String = "demo@courier.dev", password: String = "secret123") {
    self.email = email
    self.password = password
  }
}

/// A user of the demo API.
public struct DemoUser: Codable, Sendable, Equatable {
  public var id: Int
  public var email: String
  public var name: String
  public var createdAt: Date
}

/// A product of the demo API.
public struct Product: Codable, Sendable, Equatable {
  public var id: Int
  public var name: String
  public var category: String
  public var price: Double
  public var tags: [String]

  public init(id: Int, name: String, category: String, price: Double, tags: [String]) {
    self.id = id
    self.name = name
    self.category = category
    self.price = price
    self.tags = tags
  }
}

/// A page of `/products`.
public struct ProductPage: Codable, Sendable, Equatable {
  public var items: [Product]
  public var total: Int
  public var page: Int
  public var limit: Int
  public var hasMore: Bool
}

/// What `/counted/{key}` reports.
public struct CountedHits: Codable, Sendable, Equatable {
  public var key: String
  public var hits: Int

  public init(key: String, hits: Int) {
    self.key = key
    self.hits = hits
  }
}

/// What `/echo/**` reports about the request it received.
public struct Echo: Codable, Sendable {
  public var method: String
  public var path: String
  public var rawQuery: String?
  public var query: [[String]]
  public var headers: [[String]]
  public var body: String?
  public var bodyLength: Int

  /// The value of the header named `name`, in any case.
  public func header(_ name: String) -> String? {
    headers.first { $0.first?.lowercased() == name.lowercased() }?.last
  }

  /// The query as name-value pairs, in order.
  public var queryPairs: [(String, String)] { query.map { ($0[0], $0.count > 1 ? $0[1] : "") } }
}
