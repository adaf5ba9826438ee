import Courier

/// How to get from one page of a paginated API to the next: given the response of the current page and the endpoint
/// that fetched it, the endpoint of the next page, or `nil` after the last page.
///
/// Courier ships the three common schemes; pick the one your API uses and hand it to
/// ``Courier/APIClient/pages(of:using:)``:
///
/// ```swift
/// // ?page=N, with a "hasMore" flag (or a total) in the body
/// client.pages(of: Endpoint<ProductPage>.get("/products", query: ["limit": 20]), using: .pageNumber { $0.hasMore })
///
/// // ?cursor=…, with the next cursor in the body
/// client.pages(of: Endpoint<Feed>.get("/feed"), using: .cursor { $0.nextCursor })
///
/// // Link: <…>; rel="next" (RFC 8288), as GitHub and many others send it
/// client.pages(of: Endpoint<[Repository]>.get("/user/repos"), using: .linkHeader())
/// ```
///
/// For anything else, write the step yourself; the endpoint you return is sent as it is. Here the cursor travels in
/// a JSON body:
///
/// ```swift
/// let search = Paginator<SearchPage> { response, endpoint in
///   guard let cursor = response.value.nextCursor else { return nil }
///   return endpoint.body(json: SearchQuery(text: "boots", cursor: cursor))
/// }
/// ```
public struct Paginator<Value: Decodable & Sendable>: Sendable {
  let step: @Sendable (APIResponse<Value>, Endpoint<Value>) throws -> Endpoint<Value>?

  /// Creates a paginator from a function that returns the next page's endpoint, or `nil` after the last page.
  ///
  /// - Parameter next: Receives the current page's response and the endpoint that fetched it. A thrown error ends
  ///   the pages with that error (a `CourierError` as it is, anything else wrapped as a decoding error).
  public init(
    next: @escaping @Sendable (_ response: APIResponse<Value>, _ endpoint: Endpoint<Value>) throws -> Endpoint<Value>?
  ) {
    step = next
  }

  /// The endpoint of the page after `response`, or `nil` after the last page.
  public func nextEndpoint(
    after response: APIResponse<Value>, from endpoint: Endpoint<Value>
  ) throws -> Endpoint<Value>? {
    try step(response, endpoint)
  }
}
