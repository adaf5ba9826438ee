#if canImport(Hummingbird)
/// `GET /admin/stats`: `{"refreshCalls": N, "requests": {"GET /products": 3, …}, "maxInFlight": N,
/// "flaky": {"<key>": N, …}}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct Stats: Codable, Sendable, Equatable {
  /// How many times `/auth/refresh` was called since start or the last reset (failed calls included).
  var refreshCalls: Int
  /// Request counts keyed by `"<METHOD> <route pattern>"`; admin routes and the read-outs
  /// `GET /flaky/{key}/attempts`, `GET /counted/{key}/hits` and `GET /cache/hits/{key}` are not counted.
  var requests: [String: Int]
  /// The most `/concurrency/probe` requests ever in flight at once.
  var maxInFlight: Int = 0
  /// Requests per `/flaky/{key}` key, failed ones included.
  var flaky: [String: Int] = [:]
}
#endif
