import Courier
import Foundation
import HTTPTypes

extension APIClient {
  /// Sends a request described by its parts and returns the decoded body: the call at the heart of a client with
  /// services on top.
  ///
  /// ```swift
  /// struct ProductService {
  ///   let client: APIClient
  ///   func products(in category: String, page: Int) async throws -> ProductPage {
  ///     try await client.request(
  ///       endpoint: "/products", method: .get,
  ///       queryItems: [URLQueryItem(name: "category", value: category), URLQueryItem(name: "page", value: "\(page)")])
  ///   }
  ///   func rename(to name: String, token: String) async throws -> User {
  ///     try await client.request(
  ///       endpoint: "/users/me", method: .patch, headers: [.authorization(bearer: token)], body: ["name": name])
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - endpoint: The path, joined to the base URL, or an absolute URL.
  ///   - method: The method; `GET` by default.
  ///   - queryItems: Query items, sent exactly as given.
  ///   - headers: Headers, over the client's defaults.
  ///   - body: A JSON body, encoded with the client's encoder (and its type's `DateCodingStrategyProviding`
  ///     strategy); none by default.
  ///   - type: What the body decodes to: any `Decodable`, or `EmptyBody`, `Data` or `String`.
  /// - Throws: `CourierError`.
  @discardableResult
  public func request<Value: Decodable & Sendable>(
    endpoint: String,
    method: HTTPMethod = .get,
    queryItems: [URLQueryItem] = [],
    headers: [HTTPHeader] = [],
    body: (any Encodable & Sendable)? = nil,
    as type: Value.Type = Value.self
  ) async throws -> Value {
    try await value(
      Endpoint<Value>.parts(endpoint, method: method, queryItems: queryItems, headers: headers, body: body))
  }

  /// Sends a request described by its parts, with a hand-written `QueryParameters` (`["page": 2, "tags": ["a", "b"]]`).
  @discardableResult
  public func request<Value: Decodable & Sendable>(
    endpoint: String,
    method: HTTPMethod = .get,
    query: QueryParameters,
    headers: [HTTPHeader] = [],
    body: (any Encodable & Sendable)? = nil,
    as type: Value.Type = Value.self
  ) async throws -> Value {
    try await value(Endpoint<Value>.parts(endpoint, method: method, query: query, headers: headers, body: body))
  }

  /// Sends a request described by its parts, with headers as `HTTPFields` (`[.accept: "text/csv"]`).
  @_disfavoredOverload
  @discardableResult
  public func request<Value: Decodable & Sendable>(
    endpoint: String,
    method: HTTPMethod = .get,
    queryItems: [URLQueryItem] = [],
    headers: HTTPFields,
    body: (any Encodable & Sendable)? = nil,
    as type: Value.Type = Value.self
  ) async throws -> Value {
    try await value(
      Endpoint<Value>.parts(
        endpoint, method: method, queryItems: queryItems, headers: [], body: body
      ).headers(headers))
  }

  /// Sends a request described by its parts, with a `QueryParameters` and headers as `HTTPFields`.
  @_disfavoredOverload
  @discardableResult
  public func request<Value: Decodable & Sendable>(
    endpoint: String,
    method: HTTPMethod = .get,
    query: QueryParameters,
    headers: HTTPFields,
    body: (any Encodable & Sendable)? = nil,
    as type: Value.Type = Value.self
  ) async throws -> Value {
    try await value(
      Endpoint<Value>.parts(
        endpoint, method: method, query: query, headers: [], body: body
      ).headers(headers))
  }
}
