import Foundation
import HTTPTypes

extension Endpoint {
  /// An endpoint made from the loose parts a hand-written client passes around.
  static func parts(
    _ path: String,
    method: HTTPMethod,
    queryItems: [URLQueryItem] = [],
    query: Query = Query(),
    headers: [HTTPHeader],
    body: (any Encodable & Sendable)?
  ) -> Endpoint {
    var endpoint = Endpoint(path, method: method).queryItems(queryItems).query(query)
    endpoint.headers = headers
    if let body { endpoint.body = .json(model: body) }
    return endpoint
  }

  /// Appends `URLQueryItem`s exactly as given; an item with a `nil` value is sent as its name alone.
  ///
  /// ```swift
  /// Endpoint<ProductPage>.get("/products").queryItems([URLQueryItem(name: "category", value: "books")])
  /// ```
  public func queryItems(_ items: [URLQueryItem]) -> Endpoint {
    guard !items.isEmpty else { return self }
    return with { $0.queryParts.append(.encodable { _ in items }) }
  }
}

extension HTTPFields {
  /// The fields as ``HTTPHeader`` values, in order.
  var asHTTPHeaders: [HTTPHeader] { map { HTTPHeader($0.name, $0.value) } }
}
