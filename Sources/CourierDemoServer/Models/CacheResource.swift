#if canImport(Hummingbird)
/// The body of `GET /cache/resource/{key}`:
/// `{"key": "k", "version": 2, "hit": 5, "vary": {"Accept-Language": "de"}}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheResource: Codable, Sendable, Equatable {
  /// The key from the path.
  var key: String
  /// The version served.
  var version: Int
  /// This request's number among the key's `GET`/`HEAD` requests, so every response from the origin differs.
  var hit: Int
  /// The request's value of each header named in `vary` (`null` when absent; several fields joined by `, `);
  /// empty without `vary` or with `vary=*`.
  var vary: [String: String?]
}
#endif
