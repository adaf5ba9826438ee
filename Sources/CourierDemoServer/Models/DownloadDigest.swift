#if canImport(Hummingbird)
/// What `GET /download/sha256/{bytes}` answers: `{"bytes": N, "sha256": "<hex>"}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DownloadDigest: Codable, Sendable, Equatable {
  /// The size asked for.
  var bytes: Int64
  /// SHA-256 of the whole body of `/download/{bytes}`, lowercase hex.
  var sha256: String
}
#endif
