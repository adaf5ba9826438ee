import Courier
import Foundation

extension Paginator {
  /// Pages numbered in a query parameter (`?page=2`), continuing while `hasMore` says the body has a next page.
  ///
  /// The next page's number is the current one plus one; the current one is read from the URL the page was fetched
  /// from (`firstPage` when absent). Every other parameter, such as `limit` or filters, is kept.
  ///
  /// ```swift
  /// struct ProductPage: Decodable, Sendable { var items: [Product]; var page, limit, total: Int; var hasMore: Bool }
  ///
  /// let endpoint = Endpoint<ProductPage>.get("/products", query: ["category": "books", "limit": 10])
  /// for try await page in client.pages(of: endpoint, using: .pageNumber { $0.hasMore }) {
  ///   show(page.items)
  /// }
  /// // With only a total: .pageNumber { $0.page * $0.limit < $0.total }
  /// ```
  ///
  /// - Parameters:
  ///   - parameter: The query parameter holding the page number; `page` by default.
  ///   - firstPage: The number of the page fetched when the parameter is absent; 1 by default.
  ///   - hasMore: Whether a page after this one exists.
  public static func pageNumber(
    _ parameter: String = "page",
    firstPage: Int = 1,
    hasMore: @escaping @Sendable (Value) -> Bool
  ) -> Paginator {
    Paginator { response, endpoint in
      guard hasMore(response.value), let url = response.request.url else { return nil }
      let current = PageURL.value(of: parameter, in: url).flatMap { Int($0) } ?? firstPage
      guard let next = PageURL.setting(parameter, to: String(current + 1), in: url) else {
        throw CourierError(.invalidURL, "The next page's URL could not be made from \(url.absoluteString)")
      }
      return endpoint.url(next)
    }
  }
}
