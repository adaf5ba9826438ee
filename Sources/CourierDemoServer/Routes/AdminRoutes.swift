#if canImport(Hummingbird)
import Hummingbird

/// Test controls under `/admin` (no authentication; not counted in the stats).
@available(macOS 14, iOS 17, tvOS 17, *)
struct AdminRoutes: Sendable {
  /// The server state.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .post, pattern: "/admin/expire-tokens", counted: false, handler: expireTokens),
      Route(method: .post, pattern: "/admin/refresh-failure", counted: false, handler: refreshFailure),
      Route(method: .get, pattern: "/admin/stats", counted: false, handler: stats),
      Route(method: .post, pattern: "/admin/reset", counted: false, handler: reset),
    ]
  }

  /// Expires every access token issued so far → `{"expiredTokens": N}`.
  @Sendable func expireTokens(_ request: Request, _ context: DemoContext) async throws -> Response {
    try JSONResponse.make(["expiredTokens": await state.expireAllAccessTokens()])
  }

  /// `{"enabled": Bool}` switches `/auth/refresh` failures (503) → `{"refreshFailure": Bool}`.
  @Sendable func refreshFailure(_ request: Request, _ context: DemoContext) async throws -> Response {
    let body = try await JSONBody.decode(RefreshFailureRequest.self, from: request)
    await state.setRefreshFailure(enabled: body.enabled)
    return try JSONResponse.make(["refreshFailure": body.enabled])
  }

  /// `{"refreshCalls": N, "requests": {"<METHOD> <pattern>": count}, "maxInFlight": N, "flaky": {"<key>": N}}`.
  @Sendable func stats(_ request: Request, _ context: DemoContext) async throws -> Response {
    try JSONResponse.make(await state.stats())
  }

  /// Back to the seed data; counters (flaky attempts, counted hits, max in flight, cache origin hits too) zeroed,
  /// cache versions back to 1 and tokens dropped → `{"reset": true}`.
  @Sendable func reset(_ request: Request, _ context: DemoContext) async throws -> Response {
    await state.reset()
    return try JSONResponse.make(["reset": true])
  }
}
#endif
