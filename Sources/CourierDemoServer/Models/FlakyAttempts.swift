#if canImport(Hummingbird)
/// `/flaky/{key}` once it succeeds, and `GET /flaky/{key}/attempts`: `{"key": "k", "attempts": 3}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FlakyAttempts: Codable, Sendable, Equatable {
  /// The key from the path.
  var key: String
  /// Requests to `/flaky/{key}` for this key so far, failed ones included.
  var attempts: Int
}
#endif
