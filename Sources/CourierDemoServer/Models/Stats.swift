/// `GET /admin/stats`: `{"refreshCalls": N, "requests": {"GET /products": 3, …}}`.
struct Stats: Codable, Sendable, Equatable {
  /// How many times `/auth/refresh` was called since start or the last reset (failed calls included).
  var refreshCalls: Int
  /// Request counts keyed by `"<METHOD> <route pattern>"`, admin routes excluded.
  var requests: [String: Int]
}
