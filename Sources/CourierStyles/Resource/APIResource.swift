import Courier
import Foundation
import HTTPTypes

/// A resource of your API described as a type: where it lives, how to query it, and the model it returns.
///
/// Only ``path`` is required. Set ``wrapperKey`` when the server wraps the model in an envelope:
///
/// ```swift
/// struct ProductsResource: APIResource {
///   typealias ModelType = [Product]
///   var category: String
///   var path: String { "/products" }
///   var queryItems: [URLQueryItem] { [URLQueryItem(name: "category", value: category)] }
///   var wrapperKey: String? { "items" }  // {"items": [...], "total": 12} -> [Product]
/// }
///
/// let books = try await client.value(ProductsResource(category: "books"))
/// let endpoint = ProductsResource(category: "books").endpoint.timeout(5)  // an Endpoint<[Product]> to refine
/// ```
///
/// For bytes rather than JSON, make the model ``BinaryContent``: the body arrives as it is, with its content type.
public protocol APIResource: Sendable {
  /// What the body (or the value under ``wrapperKey``) decodes to.
  associatedtype ModelType: Decodable & Sendable

  /// The path, joined to the client's base URL.
  var path: String { get }
  /// The query items, sent exactly as given; none by default.
  var queryItems: [URLQueryItem] { get }
  /// The method; `GET` by default.
  var method: HTTPMethod { get }
  /// Extra headers; none by default.
  var headers: [HTTPHeader] { get }
  /// The key the model sits under in the body, or a dotted path to it (`"data.items"`); `nil` (the default) for
  /// the whole body.
  var wrapperKey: String? { get }
}

extension APIResource {
  /// No query items.
  public var queryItems: [URLQueryItem] { [] }
  /// `GET`.
  public var method: HTTPMethod { .get }
  /// No extra headers.
  public var headers: [HTTPHeader] { [] }
  /// The whole body.
  public var wrapperKey: String? { nil }

  /// The endpoint this resource describes, to send as is or refine with `Endpoint` modifiers.
  public var endpoint: Endpoint<ModelType> {
    var endpoint = Endpoint<ModelType>(path, method: method).queryItems(queryItems)
    endpoint.headers = headers
    if ModelType.self == BinaryContent.self {
      if !headers.contains(where: { $0.name.lowercased() == "accept" }) { endpoint = endpoint.header(.accept("*/*")) }
      endpoint = endpoint.decode { data, response, _ in
        guard let content = BinaryContent(body: data, response: response) as? ModelType else {
          throw CourierError(.decoding, "\(ModelType.self) is not BinaryContent")
        }
        return content
      }
    }
    if let wrapperKey { endpoint = endpoint.unwrapping(wrapperKey) }
    return endpoint
  }
}

extension APIClient {
  /// Sends a resource's request and returns the whole response.
  @discardableResult
  public func send<Resource: APIResource>(_ resource: Resource) async throws -> APIResponse<Resource.ModelType> {
    try await send(resource.endpoint)
  }

  /// Sends a resource's request and returns its model.
  ///
  /// ```swift
  /// let books: [Product] = try await client.value(ProductsResource(category: "books"))
  /// ```
  @discardableResult
  public func value<Resource: APIResource>(_ resource: Resource) async throws -> Resource.ModelType {
    try await send(resource.endpoint).value
  }
}
