import Courier
import Foundation

/// Where ``Courier/APIClient/dataRequest(url:method:headers:parameters:decoder:as:)`` puts its parameters: in the URL's
/// query, or in the body.
///
/// ```swift
/// .query(["page": 2, "tags": ["a", "b"]])  // ?page=2&tags[]=a&tags[]=b
/// .query(ProductFilter(category: "books"))  // a keyed Encodable, in declaration order
/// .body(NewPost(title: "Hi"))               // JSON
/// .form(["email": email, "password": password])
/// ```
public struct RequestParameters: Sendable {
  /// Where the parameters go in the URL.
  enum URLPart: Sendable {
    case query(QueryParameters)
    case encodable(any Encodable & Sendable)
    case items([URLQueryItem])
  }

  var urlPart: URLPart?
  var payload: Payload?

  /// No parameters.
  public static let none = RequestParameters()

  /// A hand-written `QueryParameters` in the URL.
  public static func query(_ query: QueryParameters) -> RequestParameters {
    RequestParameters(urlPart: .query(query))
  }

  /// The properties of a keyed `Encodable` in the URL, encoded with the client's `URLQueryEncoder`.
  @_disfavoredOverload
  public static func query(_ parameters: some Encodable & Sendable) -> RequestParameters {
    RequestParameters(urlPart: .encodable(parameters))
  }

  /// `URLQueryItem`s in the URL, exactly as given.
  public static func query(_ items: [URLQueryItem]) -> RequestParameters {
    RequestParameters(urlPart: .items(items))
  }

  /// A JSON body, with the client's encoder (and the type's `DateCodingStrategyProviding` strategy).
  public static func body(_ value: some Encodable & Sendable) -> RequestParameters {
    RequestParameters(payload: .json(value))
  }

  /// An `application/x-www-form-urlencoded` body from a keyed `Encodable`.
  @_disfavoredOverload
  public static func form(_ value: some Encodable & Sendable) -> RequestParameters {
    RequestParameters(payload: .form(value))
  }

  /// An `application/x-www-form-urlencoded` body from a `QueryParameters`.
  public static func form(_ query: QueryParameters) -> RequestParameters {
    RequestParameters(payload: .form(query))
  }
}

extension Endpoint {
  /// The endpoint with `parameters` in its URL and body.
  func adding(_ parameters: RequestParameters) -> Endpoint {
    var endpoint = self
    switch parameters.urlPart {
    case .query(let query): endpoint = endpoint.query(query)
    case .encodable(let value): endpoint = endpoint.query(value)
    case .items(let items): endpoint = endpoint.queryItems(items)
    case nil: break
    }
    if let payload = parameters.payload { endpoint.body = payload }
    return endpoint
  }
}
