import Courier
import Foundation
import HTTPTypes

extension Endpoint {
  /// An endpoint made from the loose parts a hand-written client passes around.
  static func parts(
    _ path: String,
    method: HTTPMethod,
    queryItems: [URLQueryItem] = [],
    query: QueryParameters = QueryParameters(),
    headers: [HTTPHeader],
    body: (any Encodable & Sendable)?
  ) -> Endpoint {
    var endpoint = Endpoint(path, method: method).queryItems(queryItems).query(query)
    endpoint.headers = headers
    if let body { endpoint.body = .json(body) }
    return endpoint
  }
}
