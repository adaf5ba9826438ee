#if canImport(Hummingbird)
import Hummingbird

/// `GET /concurrency/probe?ms=N`: shows how many requests a client keeps in flight at once.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ConcurrencyRoutes: Sendable {
  /// The wait when `ms` is absent.
  static let defaultMilliseconds = 20
  /// Longest wait; larger `ms` values are capped.
  static let maxMilliseconds = 2_000

  /// The server state.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [Route(method: .get, pattern: "/concurrency/probe", handler: probe)]
  }

  /// Joins the probes in flight, waits `ms` milliseconds, leaves → `{"inFlight","maxInFlight"}`.
  ///
  /// `inFlight` counts the probes in flight when this one started (itself included); `maxInFlight` is the most
  /// ever in flight at once, read when this one finished.
  @Sendable func probe(_ request: Request, _ context: DemoContext) async throws -> Response {
    let query = QueryString(raw: request.uri.query)
    let milliseconds = try QueryParameter.milliseconds(
      "ms",
      in: query,
      default: Self.defaultMilliseconds,
      cap: Self.maxMilliseconds
    )
    let inFlight = await state.beginProbe()
    do {
      try await Pause.milliseconds(milliseconds)
    } catch {
      _ = await state.endProbe()
      throw error
    }
    let maxInFlight = await state.endProbe()
    return try JSONResponse.make(ProbeReport(inFlight: inFlight, maxInFlight: maxInFlight))
  }
}
#endif
