import Foundation
import HTTPTypes

/// A type that describes API calls, most often an enum with a case per call, that a client can send directly.
///
/// Every requirement but ``path`` has a default, so a small API is a few lines:
///
/// ```swift
/// enum MovieAPI: EndpointConvertible {
///   case popular(page: Int)
///   case movie(id: Int)
///   case rate(id: Int, stars: Int)
///
///   var path: String {
///     switch self {
///     case .popular: "/movies/popular"
///     case .movie(let id): "/movies/\(id)"
///     case .rate(let id, _): "/movies/\(id)/rating"
///     }
///   }
///   var method: HTTPRequest.Method {
///     if case .rate = self { .post } else { .get }
///   }
///   var query: QueryParameters {
///     if case .popular(let page) = self { ["page": .int(Int64(page))] } else { [:] }
///   }
///   var body: Payload? {
///     if case .rate(_, let stars) = self { .json(["value": stars]) } else { nil }
///   }
/// }
///
/// let page = try await client.value(MovieAPI.popular(page: 2), as: MoviePage.self)
/// ```
public protocol EndpointConvertible: Sendable {
  /// The type of ``task``: ``NoEndpointTask`` unless the type declares a `task` of its own.
  associatedtype DeclaredTask: Sendable = NoEndpointTask

  /// A base URL for this API, overriding the client's; `nil` (the default) uses the client's.
  var baseURL: URL? { get }
  /// The path, joined to the base URL.
  var path: String { get }
  /// The method; `GET` by default.
  var method: HTTPRequest.Method { get }
  /// The query; empty by default.
  var query: QueryParameters { get }
  /// The body; none by default.
  var body: Payload? { get }
  /// Extra headers; none by default.
  var headers: [HTTPHeader] { get }
  /// A canned response for sample mode (previews, demos, tests); none by default. See ``SampleResponse``.
  var sample: SampleResponse? { get }
  /// Nothing (``NoEndpointTask``) by default. CourierStyles' `TargetType` carries a call's parameters in a `task`;
  /// a type that declares `var task: EndpointTask` without conforming to `TargetType` gets a deprecation warning
  /// asking it to, and its task is still applied, so that a `task` written for `TargetType` is never silently
  /// ignored.
  var task: DeclaredTask { get }

  /// The endpoint this value describes, decoding to `Value`. The default builds it from the requirements above;
  /// implement it to set anything else an ``Endpoint`` can carry.
  func endpoint<Value: Decodable & Sendable>(as type: Value.Type) -> Endpoint<Value>
}

/// The ``EndpointConvertible/task`` of a type that declares none.
public struct NoEndpointTask: Sendable {
  /// The empty task.
  public init() {}
}

extension EndpointConvertible where DeclaredTask == NoEndpointTask {
  /// No task.
  public var task: NoEndpointTask { NoEndpointTask() }
}

extension EndpointConvertible {
  /// `nil`: the client's base URL.
  public var baseURL: URL? { nil }
  /// `GET`.
  public var method: HTTPRequest.Method { .get }
  /// No query.
  public var query: QueryParameters { QueryParameters() }
  /// No body.
  public var body: Payload? { nil }
  /// No extra headers.
  public var headers: [HTTPHeader] { [] }
  /// No sample.
  public var sample: SampleResponse? { nil }
  /// ``defaultEndpoint(as:)``: the endpoint the requirements describe.
  public func endpoint<Value: Decodable & Sendable>(as type: Value.Type) -> Endpoint<Value> {
    defaultEndpoint(as: type)
  }

  /// The endpoint built from ``baseURL``, ``path``, ``method``, ``query``, ``body``, ``headers`` and ``sample``,
  /// accepting 200 to 299; call it from your own ``endpoint(as:)`` to refine it (other statuses, a timeout, ...).
  ///
  /// ```swift
  /// func endpoint<Value>(as type: Value.Type) -> Endpoint<Value> {
  ///   let endpoint = defaultEndpoint(as: type).timeout(5).retries(false)
  ///   if case .rate = self { return endpoint.expect(.created) }
  ///   return endpoint
  /// }
  /// ```
  public func defaultEndpoint<Value: Decodable & Sendable>(as type: Value.Type) -> Endpoint<Value> {
    var endpoint = Endpoint<Value>(path, method: method).query(query)
    endpoint.baseURL = baseURL
    endpoint.body = body
    endpoint.headers = headers
    endpoint.sample = sample
    return endpoint
  }
}
