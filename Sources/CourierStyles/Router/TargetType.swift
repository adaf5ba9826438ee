import Courier

/// An `EndpointConvertible` API described the Moya way, with a ``task`` that carries each call's typed body and
/// URL parameters and extra headers.
///
/// ```swift
/// enum BlogAPI: TargetType {
///   case posts(page: Int)
///   case create(NewPost)
///
///   var path: String { if case .create = self { "/posts" } else { "/posts" } }
///   var method: HTTPMethod { if case .create = self { .post } else { .get } }
///   var task: EndpointTask {
///     switch self {
///     case .posts(let page): .requestParameters(url: ["page": .int(page)])
///     case .create(let post): .requestParameters(body: post)
///     }
///   }
/// }
/// let posts = try await TargetRouter<BlogAPI>(client: client).request(.posts(page: 1), as: [Post].self)
/// ```
public protocol TargetType: EndpointConvertible where DeclaredTask == NoEndpointTask {
  /// Typed body and URL parameters and extra headers; ``EndpointTask/request`` (nothing) by default. Applied after
  /// `EndpointConvertible.query`, `EndpointConvertible.body` and `EndpointConvertible.headers`: its URL
  /// parameters are appended, its body replaces `body`, and its headers replace those of the same name.
  var task: EndpointTask { get }
}

extension TargetType {
  /// Nothing beyond the other requirements.
  public var task: EndpointTask { .request }

  /// The endpoint the requirements describe, with the ``task`` applied.
  public func endpoint<Value: Decodable & Sendable>(as type: Value.Type) -> Endpoint<Value> {
    task.apply(to: defaultEndpoint(as: type))
  }
}

extension EndpointConvertible where DeclaredTask == EndpointTask {
  /// The endpoint the requirements describe, with the `task` applied: what `TargetType` does. A type that
  /// declares a `task` conforms to `TargetType`; this default only keeps such a task from being silently ignored.
  @available(
    *, deprecated,
    message: "a task is applied by TargetType: conform to TargetType instead of EndpointConvertible"
  )
  public func endpoint<Value: Decodable & Sendable>(as type: Value.Type) -> Endpoint<Value> {
    task.apply(to: defaultEndpoint(as: type))
  }
}
