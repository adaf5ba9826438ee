#if canImport(Hummingbird)
import Hummingbird

/// One endpoint: a method, a path pattern in Hummingbird syntax (`/products/{id}`) and its handler.
@available(macOS 14, iOS 17, tvOS 17, *)
struct Route: Sendable {
  /// The handler's signature.
  typealias Handler = @Sendable (Request, DemoContext) async throws -> Response

  /// The method the route answers.
  var method: HTTPRequest.Method
  /// The path pattern; `{name}` captures one segment and `**` the rest of the path.
  var pattern: String
  /// Whether requests are counted in `/admin/stats`.
  var counted: Bool = true
  /// Produces the response.
  var handler: Handler

  /// The key under which `/admin/stats` counts this route, e.g. `GET /products/{id}`.
  var statsKey: String {
    "\(method.rawValue) \(pattern)"
  }
}
#endif
