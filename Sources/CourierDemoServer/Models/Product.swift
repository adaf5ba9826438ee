#if canImport(Hummingbird)
import Foundation

/// A catalogue product: `{"id","name","category","price","tags","createdAt"}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct Product: Codable, Sendable, Equatable {
  /// Numeric id, 1…57 in the seed data.
  var id: Int
  /// Name such as "Trail Runner 1".
  var name: String
  /// One of `shoes`, `books`, `games`, `garden`.
  var category: String
  /// Price with two decimals.
  var price: Double
  /// Free-form tags.
  var tags: [String]
  /// Creation time, encoded as ISO 8601 with `Z`.
  var createdAt: Date
}

/// One page of products: `{"items","total","page","limit","hasMore"}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ProductPage: Codable, Sendable, Equatable {
  /// The products on this page.
  var items: [Product]
  /// How many products match the filters in all.
  var total: Int
  /// The page number, from 1.
  var page: Int
  /// The page size.
  var limit: Int
  /// Whether a later page has more items.
  var hasMore: Bool
}
#endif
