import Courier
import Foundation
import HTTPTypes

/// The name DataLoader-style code gives its client: an `APIClient`, whose
/// ``Courier/APIClient/dataRequest(url:method:headers:parameters:decoder:as:)`` loads `Data` or a `Decodable`.
///
/// ```swift
/// let loader = DataLoader(baseURL: URL(string: "https://api.example.com"))
/// ```
public typealias DataLoader = APIClient

extension APIClient {
  /// Loads a URL and returns the body as `Data`, or decoded as any `Decodable`.
  ///
  /// ```swift
  /// let raw: Data = try await loader.dataRequest(url: feedURL)
  /// let page: ProductPage = try await loader.dataRequest(
  ///   url: productsURL, method: .get,
  ///   headers: [.authorization(bearerToken: token), .acceptLanguage(["fr", "en"])],
  ///   parameters: .query(["category": "books", "page": 2]))
  /// let post: Post = try await loader.dataRequest(url: postsURL, method: .post, parameters: .body(newPost))
  /// ```
  ///
  /// - Parameters:
  ///   - url: An absolute URL, or one relative to the client's base URL (`URL(string: "/products")!`).
  ///   - method: The method; `GET` by default.
  ///   - headers: Headers, over the client's defaults.
  ///   - parameters: QueryParameters or body parameters; none by default.
  ///   - decoder: Decodes the body, instead of the client's decoder.
  ///   - type: `Data` for the raw body, or any `Decodable`.
  /// - Throws: `CourierError`, with the server's error body decoded when the status is not a success.
  @discardableResult
  public func dataRequest<Value: Decodable & Sendable>(
    url: URL,
    method: HTTPMethod = .get,
    headers: [HTTPHeader] = [],
    parameters: RequestParameters = .none,
    decoder: JSONDecoder? = nil,
    as type: Value.Type = Value.self
  ) async throws -> Value {
    var endpoint = Endpoint<Value>(url.absoluteString, method: method).adding(parameters)
    endpoint.headers = headers
    endpoint.decoder = decoder
    return try await value(endpoint)
  }
}
