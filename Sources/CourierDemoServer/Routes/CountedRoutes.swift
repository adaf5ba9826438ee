#if canImport(Hummingbird)
import Hummingbird

/// `GET /counted/{key}?ms=N` counts hits per key (to prove identical requests were de-duplicated);
/// `GET /counted/{key}/hits` reads the count.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CountedRoutes: Sendable {
  /// Longest wait; larger `ms` values are capped.
  static let maxMilliseconds = 5_000

  /// The server state.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .get, pattern: "/counted/{key}", handler: counted),
      Route(method: .get, pattern: "/counted/{key}/hits", counted: false, handler: hits),
    ]
  }

  /// Counts the hit, waits `ms` milliseconds (default 0) → `{"key","hits"}` with `Cache-Control: no-store`.
  ///
  /// `hits` is this request's number among the key's hits, so responses to requests that really reached the
  /// server all differ.
  @Sendable func counted(_ request: Request, _ context: DemoContext) async throws -> Response {
    let key = try PathParameter.key(in: context)
    let query = QueryString(raw: request.uri.query)
    let milliseconds = try QueryParameter.milliseconds("ms", in: query, default: 0, cap: Self.maxMilliseconds)
    let hit = await state.recordHit(key: key)
    try await Pause.milliseconds(milliseconds)
    return try JSONResponse.make(CountedHits(key: key, hits: hit), headers: [.cacheControl: "no-store"])
  }

  /// `{"key","hits"}` with all hits so far, without counting one; also `Cache-Control: no-store`.
  @Sendable func hits(_ request: Request, _ context: DemoContext) async throws -> Response {
    let key = try PathParameter.key(in: context)
    let hits = await state.hits(key: key)
    return try JSONResponse.make(CountedHits(key: key, hits: hits), headers: [.cacheControl: "no-store"])
  }
}
#endif
