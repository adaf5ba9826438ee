#if canImport(Hummingbird)
/// `GET /counted/{key}` and `GET /counted/{key}/hits`: `{"key": "k", "hits": 1}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CountedHits: Codable, Sendable, Equatable {
  /// The key from the path.
  var key: String
  /// For `/counted/{key}`: this request's number among the hits on the key (the hits so far when it arrived).
  /// For `/counted/{key}/hits`: all hits on the key so far.
  var hits: Int
}
#endif
