#if canImport(Hummingbird)
/// `GET /cache/hits/{key}`: `{"key": "k", "hits": 3, "notModified": 1, "unsafe": 1, "version": 2}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheHits: Codable, Sendable, Equatable {
  /// The key from the path.
  var key: String
  /// `GET` and `HEAD` requests for the key that reached the server, 304s and `fail` answers included.
  var hits: Int
  /// Those answered with 304 Not Modified.
  var notModified: Int
  /// `POST`, `PUT`, `PATCH` and `DELETE` requests for the key, whatever their status.
  var unsafe: Int
  /// The key's current version (1 until a successful unsafe request).
  var version: Int
}
#endif
