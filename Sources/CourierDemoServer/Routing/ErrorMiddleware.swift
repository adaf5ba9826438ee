#if canImport(Hummingbird)
import Hummingbird

/// Catches every error below it and answers with a JSON error body (404/405 for unknown routes).
@available(macOS 14, iOS 17, tvOS 17, *)
struct ErrorMiddleware: RouterMiddleware {
  /// The routes, to tell 405 from 404.
  let routes: RouteTable

  /// Runs the next responder and maps any error it throws.
  func handle(
    _ request: Request,
    context: DemoContext,
    next: (Request, DemoContext) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch {
      return ErrorMapping.response(for: error, request: request, routes: routes)
    }
  }
}
#endif
