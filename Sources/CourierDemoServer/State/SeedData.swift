#if canImport(Hummingbird)
import Foundation

/// The deterministic data every demo server starts with (and returns to on `/admin/reset`).
@available(macOS 14, iOS 17, tvOS 17, *)
enum SeedData {
  /// The demo account's email.
  static let demoEmail = "demo@courier.dev"
  /// The demo account's password.
  static let demoPassword = "secret123"
  /// The product categories, in the order product ids cycle through them.
  static let categories = ["shoes", "books", "games", "garden"]
  /// Number of seeded products.
  static let productCount = 57
  /// Number of seeded posts.
  static let postCount = 10

  /// The seeded accounts: only the demo user, created 2024-01-15T09:30:00Z.
  static var accounts: [UserAccount] {
    [
      UserAccount(
        user: User(
          id: 1,
          email: demoEmail,
          name: "Demo User",
          createdAt: Date(timeIntervalSince1970: 1_705_311_000)
        ),
        password: demoPassword
      )
    ]
  }

  /// Products 1…57, categories cycling shoes, books, games, garden.
  static let products: [Product] = (1...productCount).map(product)

  /// Posts 1…10.
  static var posts: [Post] {
    (1...postCount).map { id in
      Post(id: id, title: "Post \(id)", body: "This is the body of post \(id).")
    }
  }

  /// Posts 1…10 keyed by id.
  static var postsByID: [Int: Post] {
    Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0) })
  }

  private static let baseNames: [String: [String]] = [
    "shoes": ["Trail Runner", "Court Classic", "Summit Hiker"],
    "books": ["Swift Handbook", "Async Patterns", "Network Notes"],
    "games": ["Puzzle Quest", "Star Racer", "Board Master"],
    "garden": ["Seed Starter", "Hose Reel", "Pruning Shears"],
  ]

  /// Product `id`: price `(id * 37) % 200 + 0.99`, created one day apart from 2024-02-01T12:00:00Z.
  static func product(id: Int) -> Product {
    let category = categories[(id - 1) % categories.count]
    let names = baseNames[category] ?? ["Item"]
    let price = Double((id * 37) % 200) + 0.99
    let tier = price < 50 ? "budget" : price < 150 ? "standard" : "premium"
    var tags = [category, tier]
    if id % 5 == 0 {
      tags.append("featured")
    }
    return Product(
      id: id,
      name: "\(names[((id - 1) / categories.count) % names.count]) \(id)",
      category: category,
      price: price,
      tags: tags,
      createdAt: Date(timeIntervalSince1970: 1_706_788_800 + Double(id - 1) * 86_400)
    )
  }
}
#endif
