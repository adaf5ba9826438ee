#if canImport(Hummingbird)
import Hummingbird

/// The application's responder: `/echo` and everything below it for every method, the router otherwise.
///
/// Echo sits in front of the router because Hummingbird's router needs one registration per method, and
/// echo must answer any method, including unusual ones.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DemoResponder: HTTPResponder {
  /// The router's responder for all other routes.
  let router: RouterResponder<DemoContext>
  /// The echo endpoint.
  let echo: EchoRoutes
  /// The routes, for error mapping.
  let routes: RouteTable

  /// Answers `request`.
  func respond(to request: Request, context: DemoContext) async throws -> Response {
    guard EchoRoutes.handles(path: request.uri.path) else {
      return try await router.respond(to: request, context: context)
    }
    do {
      return try await echo.respond(to: request)
    } catch {
      return ErrorMapping.response(for: error, request: request, routes: routes)
    }
  }
}
#endif
