#if canImport(Hummingbird)
import Hummingbird

/// Assembles every route into the application's responder.
@available(macOS 14, iOS 17, tvOS 17, *)
enum DemoRouter {
  /// All routes except echo, which ``DemoResponder`` answers for every method.
  static func routes(state: DemoState) -> [Route] {
    AuthRoutes(state: state).routes
      + UserRoutes(state: state).routes
      + ProductRoutes(state: state).routes
      + PostRoutes(state: state).routes
      + FaultRoutes().routes
      + FlakyRoutes(state: state).routes
      + ConcurrencyRoutes(state: state).routes
      + CountedRoutes(state: state).routes
      + CacheRoutes(state: state).routes
      + UploadRoutes().routes
      + RedirectRoutes().routes
      + ChallengeRoutes().routes
      + CookieRoutes().routes
      + DownloadRoutes(state: state).routes
      + StreamRoutes(state: state).routes
      + AdminRoutes(state: state).routes
  }

  /// Builds the responder answering every demo route for `state`.
  static func makeResponder(state: DemoState) -> DemoResponder {
    let routes = routes(state: state)
    let table = RouteTable(routes)
    let router = Router(context: DemoContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: ErrorMiddleware(routes: table))
    let keys = IdempotencyKeys()
    for route in routes {
      // Unsafe methods honour `Idempotency-Key`; the admin routes stay out of it.
      let guarded = ![.get, .head, .options].contains(route.method) && !route.pattern.hasPrefix("/admin")
      let handler = guarded ? keys.guarding(route.handler) : route.handler
      let statsKey = route.statsKey
      let counted = route.counted
      router.on(RouterPath(route.pattern), method: route.method) { request, context -> Response in
        if counted {
          await state.recordRequest(statsKey)
        }
        return try await handler(request, context)
      }
    }
    return DemoResponder(router: router.buildResponder(), echo: EchoRoutes(state: state), routes: table)
  }
}
#endif
