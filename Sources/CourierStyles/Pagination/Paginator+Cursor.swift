import Courier
import Foundation

extension Paginator {
  /// Pages chained by an opaque cursor: the body names the next page's cursor, which is sent back in a query
  /// parameter (`?cursor=…`); a `nil` or empty cursor ends the pages.
  ///
  /// ```swift
  /// struct Feed: Decodable, Sendable { var posts: [Post]; var nextCursor: String? }
  ///
  /// for try await feed in client.pages(of: Endpoint<Feed>.get("/feed"), using: .cursor { $0.nextCursor }) {
  ///   append(feed.posts)
  /// }
  /// ```
  ///
  /// A cursor that does not change from one page to the next also ends the pages, so a server that keeps repeating
  /// its last cursor cannot make the sequence loop forever.
  ///
  /// - Parameters:
  ///   - parameter: The query parameter the cursor is sent in; `cursor` by default. It replaces the parameter of the
  ///     same name in the current page's URL; every other parameter is kept.
  ///   - nextCursor: The next page's cursor, read from the current page.
  public static func cursor(
    _ parameter: String = "cursor",
    nextCursor: @escaping @Sendable (Value) -> String?
  ) -> Paginator {
    Paginator { response, endpoint in
      guard let cursor = nextCursor(response.value), !cursor.isEmpty, let url = response.request.url else {
        return nil
      }
      guard PageURL.value(of: parameter, in: url) != cursor else { return nil }
      guard let next = PageURL.setting(parameter, to: cursor, in: url) else {
        throw CourierError(.invalidURL, "The next page's URL could not be made from \(url.absoluteString)")
      }
      return endpoint.url(next)
    }
  }
}
