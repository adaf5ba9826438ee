import Courier

/// The pages of a paginated API as decoded values, fetched one request per `next()`: nothing is sent until the
/// first page is asked for, and no page is fetched ahead.
///
/// ```swift
/// let endpoint = Endpoint<ProductPage>.get("/products", query: ["limit": 20])
/// var products: [Product] = []
/// for try await page in client.pages(of: endpoint, using: .pageNumber { $0.hasMore }) {
///   products += page.items
///   if products.count >= 100 { break }   // stops fetching
/// }
/// ```
///
/// The sequence ends after the last page. An error ends it too, after being thrown from the loop, and so does
/// cancelling the task that iterates. Each iteration starts again from the first page.
public struct Pages<Value: Decodable & Sendable>: AsyncSequence, Sendable {
  /// Each page's decoded value.
  public typealias Element = Value

  /// The same pages as whole responses, with status and headers.
  public let responses: PageResponses<Value>

  /// Starts again from the first page.
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: responses.makeAsyncIterator())
  }

  /// Fetches the next page when asked, never ahead.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    var base: PageResponses<Value>.Iterator

    /// Sends the next page's request and returns its value, or `nil` after the last page or an error.
    public mutating func next() async throws -> Value? {
      try await base.next()?.value
    }
  }
}
