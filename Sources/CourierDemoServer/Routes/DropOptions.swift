#if canImport(Hummingbird)
/// The extra query of `/download/{bytes}/drop`: `key` (which request drops) and `after` (when).
@available(macOS 14, iOS 17, tvOS 17, *)
struct DropOptions: Sendable, Equatable {
  /// Longest `key`.
  static let maxKeyLength = 200

  /// Only the first request with this key drops its connection.
  var key: String
  /// Bytes of the body sent before the drop.
  var after: Int64

  /// Reads `key` (1 to 200 characters) and `after` (an integer ≥ 0), both required; 400 `invalid_parameter`.
  init(_ query: QueryString) throws {
    guard let key = query.first("key"), (1...Self.maxKeyLength).contains(key.count) else {
      throw APIError.invalidParameter("key", "Parameter 'key' is required: 1 to \(Self.maxKeyLength) characters")
    }
    guard let after = try QueryParameter.int("after", in: query, range: 0...Int.max) else {
      throw APIError.invalidParameter("after", "Parameter 'after' is required: bytes to send before the drop")
    }
    self.key = key
    self.after = Int64(after)
  }
}
#endif
