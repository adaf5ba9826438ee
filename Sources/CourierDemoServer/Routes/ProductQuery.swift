#if canImport(Hummingbird)
/// The validated parameters of `GET /products`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ProductQuery: Sendable, Equatable {
  /// Sort orders `GET /products` accepts.
  enum Sort: String, Sendable, CaseIterable {
    case id, price, name
    case idDescending = "-id"
    case priceDescending = "-price"
    case nameDescending = "-name"
  }

  /// Default page size.
  static let defaultLimit = 20
  /// Largest page size.
  static let maxLimit = 100

  /// Only products of this category.
  var category: String?
  /// Only products costing at least this much.
  var minPrice: Double?
  /// Only products costing at most this much.
  var maxPrice: Double?
  /// Order of the results.
  var sort: Sort = .id
  /// Page number, from 1.
  var page: Int = 1
  /// Page size, 1…100.
  var limit: Int = defaultLimit

  /// Parses and validates the query; 400 `invalid_parameter` naming the first bad parameter.
  init(_ query: QueryString) throws {
    if let category = query.first("category"), !category.isEmpty {
      self.category = category
    }
    minPrice = try Self.price("minPrice", query)
    maxPrice = try Self.price("maxPrice", query)
    if let raw = query.first("sort") {
      guard let sort = Sort(rawValue: raw) else {
        let allowed = Sort.allCases.map(\.rawValue).joined(separator: ", ")
        throw APIError.invalidParameter("sort", "Invalid value '\(raw)' for parameter 'sort': use one of \(allowed)")
      }
      self.sort = sort
    }
    if let raw = query.first("page") {
      guard let page = Int(raw), page >= 1 else {
        throw APIError.invalidParameter(
          "page",
          "Invalid value '\(raw)' for parameter 'page': expected an integer ≥ 1"
        )
      }
      self.page = page
    }
    if let raw = query.first("limit") {
      guard let limit = Int(raw), (1...Self.maxLimit).contains(limit) else {
        throw APIError.invalidParameter(
          "limit",
          "Invalid value '\(raw)' for parameter 'limit': expected an integer from 1 to \(Self.maxLimit)"
        )
      }
      self.limit = limit
    }
  }

  /// Applies filters, sorting and paging to `products`.
  func apply(to products: [Product]) -> ProductPage {
    let matching = products.filter { product in
      (category.map { $0 == product.category } ?? true)
        && (minPrice.map { product.price >= $0 } ?? true)
        && (maxPrice.map { product.price <= $0 } ?? true)
    }
    let sorted = matching.sorted(by: areInIncreasingOrder)
    let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
    let start = overflow ? sorted.count : min(offset, sorted.count)
    let end = min(start + limit, sorted.count)
    return ProductPage(
      items: Array(sorted[start..<end]),
      total: sorted.count,
      page: page,
      limit: limit,
      hasMore: end < sorted.count
    )
  }

  private func areInIncreasingOrder(_ lhs: Product, _ rhs: Product) -> Bool {
    switch sort {
    case .id: return lhs.id < rhs.id
    case .idDescending: return lhs.id > rhs.id
    case .price: return (lhs.price, lhs.id) < (rhs.price, rhs.id)
    case .priceDescending: return lhs.price != rhs.price ? lhs.price > rhs.price : lhs.id < rhs.id
    case .name: return (lhs.name, lhs.id) < (rhs.name, rhs.id)
    case .nameDescending: return lhs.name != rhs.name ? lhs.name > rhs.name : lhs.id < rhs.id
    }
  }

  private static func price(_ name: String, _ query: QueryString) throws -> Double? {
    guard let raw = query.first(name) else { return nil }
    guard let value = Double(raw), value.isFinite, value >= 0 else {
      throw APIError.invalidParameter(name, "Invalid value '\(raw)' for parameter '\(name)': expected a number ≥ 0")
    }
    return value
  }
}
#endif
