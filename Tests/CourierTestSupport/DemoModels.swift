import Courier
import Foundation

/// The demo API's error body.
public struct DemoError: ServerErrorResponse, Codable, Equatable {
  /// The machine-readable error code.
  public var code: String
  /// The human-readable message.
  public var error: String
  /// More about what was wrong, when the server says.
  public var details: [String]?
  /// The message to show.
  public var errorMessage: String? { error }

  /// Creates a value.
  public init(code: String, error: String, details: [String]? = nil) {
    self.code = code
    self.error = error
    self.details = details
  }
}

/// The demo API's token pair.
public struct Tokens: Codable, Sendable, Equatable {
  /// The bearer token.
  public var accessToken: String
  /// The token that gets a new pair.
  public var refreshToken: String
  /// Always `Bearer`.
  public var tokenType: String
  /// Seconds until the access token expires.
  public var expiresIn: Int

  /// Creates a value.
  public init(accessToken: String, refreshToken: String, tokenType: String, expiresIn: Int) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.tokenType = tokenType
    self.expiresIn = expiresIn
  }
}

/// The demo account's login.
public struct Credentials: Codable, Sendable {
  /// The e-mail address.
  public var email = "demo@courier.dev"
  /// The password.
  public var password = "secret123"

  /// Creates a value.
  public init(email: String = "demo@courier.dev", password: String = "secret123") {
    self.email = email
    self.password = password
  }
}

/// A user of the demo API.
public struct DemoUser: Codable, Sendable, Equatable {
  /// The identifier.
  public var id: Int
  /// The e-mail address.
  public var email: String
  /// The name.
  public var name: String
  /// When it was created.
  public var createdAt: Date
}

/// A product of the demo API.
public struct Product: Codable, Sendable, Equatable {
  /// The identifier.
  public var id: Int
  /// The name.
  public var name: String
  /// The category.
  public var category: String
  /// The price.
  public var price: Double
  /// The tags.
  public var tags: [String]

  /// Creates a value.
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
  /// The products on this page.
  public var items: [Product]
  /// How many products match.
  public var total: Int
  /// The page number, from 1.
  public var page: Int
  /// The page size.
  public var limit: Int
  /// Whether another page follows.
  public var hasMore: Bool
}

/// What `/counted/{key}` reports.
public struct CountedHits: Codable, Sendable, Equatable {
  /// The counter's key.
  public var key: String
  /// How many requests it counted.
  public var hits: Int

  /// Creates a value.
  public init(key: String, hits: Int) {
    self.key = key
    self.hits = hits
  }
}

/// What `/echo/**` reports about the request it received.
public struct Echo: Codable, Sendable {
  /// The method received.
  public var method: String
  /// The path received.
  public var path: String
  /// The query as received.
  public var rawQuery: String?
  /// The query, decoded, as name-value pairs.
  public var query: [[String]]
  /// The header fields, as name-value pairs.
  public var headers: [[String]]
  /// The body as text.
  public var body: String?
  /// The body's length in bytes.
  public var bodyLength: Int

  /// The value of the header named `name`, in any case.
  public func header(_ name: String) -> String? {
    headers.first { $0.first?.lowercased() == name.lowercased() }?.last
  }

  /// The query as name-value pairs, in order.
  public var queryPairs: [(String, String)] { query.map { ($0[0], $0.count > 1 ? $0[1] : "") } }
}
