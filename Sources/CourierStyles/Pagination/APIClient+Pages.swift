import Courier

extension APIClient {
  /// The pages of a paginated API, starting with `endpoint` and following `paginator` from each page to the next.
  ///
  /// ```swift
  /// // Link: <…>; rel="next" headers (the default)
  /// for try await repos in client.pages(of: Endpoint<[Repository]>.get("/user/repos")) { … }
  ///
  /// // ?page=N with a hasMore flag
  /// let products = Endpoint<ProductPage>.get("/products", query: ["limit": 50])
  /// for try await page in client.pages(of: products, using: .pageNumber { $0.hasMore }) { … }
  ///
  /// // ?cursor=… with the next cursor in the body
  /// for try await feed in client.pages(of: Endpoint<Feed>.get("/feed"), using: .cursor { $0.nextCursor }) { … }
  /// ```
  ///
  /// Requests are sent lazily, one per page the loop asks for, each through the client's interceptors like any
  /// other call. Collect everything with a loop, or stop early with `break` or `prefix(_:)`.
  ///
  /// - Parameters:
  ///   - endpoint: The first page; its method, headers, decoding and options carry over to every page.
  ///   - paginator: How to get from one page to the next; ``Paginator/linkHeader(relation:)`` by default.
  /// - Returns: An `AsyncSequence` of page values; ``Pages/responses`` gives whole responses.
  public func pages<Value>(
    of endpoint: Endpoint<Value>,
    using paginator: Paginator<Value> = .linkHeader()
  ) -> Pages<Value> {
    Pages(responses: PageResponses(client: self, first: endpoint, paginator: paginator))
  }
}
