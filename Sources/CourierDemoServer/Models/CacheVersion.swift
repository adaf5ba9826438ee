#if canImport(Hummingbird)
/// The body of `POST`, `PUT` and `PATCH /cache/resource/{key}`: `{"key": "k", "version": 3}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheVersion: Codable, Sendable, Equatable {
  /// The key from the path.
  var key: String
  /// The key's version after the request (only 2xx answers make a new one).
  var version: Int
}
#endif
