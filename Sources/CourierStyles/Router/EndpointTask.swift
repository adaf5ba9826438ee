import Courier
import Foundation

/// What a call of an `EndpointConvertible` API sends besides its path and method: nothing, typed parameters for
/// the body and the URL, extra headers, or raw bytes. Named after Moya's `task`, without clashing with Swift's
/// `Task`.
///
/// Parameters are any `Encodable` values, or ``JSONValue`` literals for one-off shapes:
///
/// ```swift
/// enum BlogAPI: TargetType {
///   case posts(page: Int)
///   case create(NewPost)
///   case search(String)
///
///   var path: String { ... }
///   var method: HTTPMethod { if case .create = self { .post } else { .get } }
///   var task: EndpointTask {
///     switch self {
///     case .posts(let page): .requestParameters(url: ["page": .int(page), "limit": 20])
///     case .create(let post): .requestParameters(body: post)
///     case .search(let text):
///       .requestParametersAndHeaders(url: SearchQuery(text: text), headers: [.accept("text/html")])
///     }
///   }
/// }
/// ```
///
/// Body parameters are JSON by default (``BodyEncoding/json``), or a form (``BodyEncoding/form``); URL parameters
/// are encoded with the client's `URLQueryEncoder` and appended to the `EndpointConvertible.query`.
public struct EndpointTask: Sendable {
  var payload: Payload?
  var urlParameters: (any Encodable & Sendable)?
  var headers: [HTTPHeader] = []

  /// A plain request: nothing beyond the path, the method and the `EndpointConvertible` requirements.
  public static let request = EndpointTask()

  /// Raw bytes as the body.
  public static func requestData(_ data: Data, contentType: String? = nil) -> EndpointTask {
    EndpointTask(payload: .data(data, contentType: contentType))
  }

  /// Typed parameters: `body` encoded as JSON (or a form), `url` encoded into the query. Either may be `nil`.
  public static func requestParameters(
    body: (any Encodable & Sendable)? = nil,
    url: (any Encodable & Sendable)? = nil,
    bodyEncoding: BodyEncoding = .json
  ) -> EndpointTask {
    EndpointTask(body: body, url: url, bodyEncoding: bodyEncoding)
  }

  /// Parameters with a ``JSONValue`` literal body: `.requestParameters(body: ["title": "Hi", "draft": true])`.
  public static func requestParameters(
    body: JSONValue,
    url: (any Encodable & Sendable)? = nil,
    bodyEncoding: BodyEncoding = .json
  ) -> EndpointTask {
    EndpointTask(body: body, url: url, bodyEncoding: bodyEncoding)
  }

  /// Parameters with ``JSONValue`` literal URL parameters: `.requestParameters(url: ["page": 2, "q": "lamp"])`.
  public static func requestParameters(
    body: (any Encodable & Sendable)? = nil,
    url: JSONValue,
    bodyEncoding: BodyEncoding = .json
  ) -> EndpointTask {
    EndpointTask(body: body, url: url, bodyEncoding: bodyEncoding)
  }

  /// Parameters with ``JSONValue`` literals for both the body and the URL.
  public static func requestParameters(
    body: JSONValue,
    url: JSONValue,
    bodyEncoding: BodyEncoding = .json
  ) -> EndpointTask {
    EndpointTask(body: body, url: url, bodyEncoding: bodyEncoding)
  }

  /// Typed parameters and extra headers, which replace the API's `EndpointConvertible.headers` of the same name.
  public static func requestParametersAndHeaders(
    body: (any Encodable & Sendable)? = nil,
    url: (any Encodable & Sendable)? = nil,
    bodyEncoding: BodyEncoding = .json,
    headers: [HTTPHeader]
  ) -> EndpointTask {
    EndpointTask(body: body, url: url, bodyEncoding: bodyEncoding, headers: headers)
  }

  /// Parameters with a ``JSONValue`` literal body, and extra headers.
  public static func requestParametersAndHeaders(
    body: JSONValue,
    url: (any Encodable & Sendable)? = nil,
    bodyEncoding: BodyEncoding = .json,
    headers: [HTTPHeader]
  ) -> EndpointTask {
    EndpointTask(body: body, url: url, bodyEncoding: bodyEncoding, headers: headers)
  }

  /// Parameters with ``JSONValue`` literal URL parameters, and extra headers.
  public static func requestParametersAndHeaders(
    body: (any Encodable & Sendable)? = nil,
    url: JSONValue,
    bodyEncoding: BodyEncoding = .json,
    headers: [HTTPHeader]
  ) -> EndpointTask {
    EndpointTask(body: body, url: url, bodyEncoding: bodyEncoding, headers: headers)
  }

  /// Parameters with ``JSONValue`` literals for both the body and the URL, and extra headers.
  public static func requestParametersAndHeaders(
    body: JSONValue,
    url: JSONValue,
    bodyEncoding: BodyEncoding = .json,
    headers: [HTTPHeader]
  ) -> EndpointTask {
    EndpointTask(body: body, url: url, bodyEncoding: bodyEncoding, headers: headers)
  }

  init(payload: Payload? = nil, urlParameters: (any Encodable & Sendable)? = nil, headers: [HTTPHeader] = []) {
    self.payload = payload
    self.urlParameters = urlParameters
    self.headers = headers
  }

  init(
    body: (any Encodable & Sendable)?,
    url: (any Encodable & Sendable)?,
    bodyEncoding: BodyEncoding,
    headers: [HTTPHeader] = []
  ) {
    payload = body.map(bodyEncoding.payload)
    urlParameters = url
    self.headers = headers
  }

  /// Adds the task's parameters and headers to `endpoint`.
  func apply<Value>(to endpoint: Endpoint<Value>) -> Endpoint<Value> {
    var endpoint = endpoint
    if let payload { endpoint.body = payload }
    if let urlParameters { endpoint = endpoint.query(urlParameters) }
    endpoint.headers += headers
    return endpoint
  }
}

extension EndpointTask {
  /// How a task's body parameters are written.
  public struct BodyEncoding: Sendable {
    let payload: @Sendable (any Encodable & Sendable) -> Payload

    /// JSON, with the client's or the endpoint's encoder (and the type's `DateCodingStrategyProviding`
    /// strategy). The default.
    public static let json = BodyEncoding { .json($0) }

    /// `application/x-www-form-urlencoded`, with the client's query encoder.
    public static let form = BodyEncoding { value in .form(value) }
  }
}
