import Foundation

/// The decoded 1 KB JSON document the GET scenarios fetch (`small.json`).
struct Catalog: Codable, Sendable, Equatable {
  struct Item: Codable, Sendable, Equatable {
    var id: Int
    var name: String
    var price: Double
    var inStock: Bool
    var tags: [String]
  }

  var page: Int
  var total: Int
  var items: [Item]

  /// A document of about 1 KB.
  static let sample = Catalog(
    page: 1, total: 8,
    items: (1...8).map { index in
      Item(
        id: index, name: "Product number \(index) with a longer name", price: Double(index) * 10.25,
        inStock: index % 2 == 0, tags: ["tag-\(index)", "category-\(index % 3)", "sale"])
    })

  /// Writes `small.json`, checking it is 1 KB give or take a few bytes.
  static func writeSample(to url: URL) throws {
    let data = try JSONEncoder().encode(sample)
    guard (900...1100).contains(data.count) else { throw BenchmarkFailure("small.json is \(data.count) bytes") }
    try data.write(to: url)
  }
}
