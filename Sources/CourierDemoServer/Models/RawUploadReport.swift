#if canImport(Hummingbird)
/// What `POST|PUT /upload/raw` answers: `{"size","sha256","contentType","chunked","contentLength"}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RawUploadReport: Codable, Sendable, Equatable {
  /// Bytes in the body.
  var size: Int64
  /// SHA-256 of the body, lowercase hex.
  var sha256: String
  /// The request's `Content-Type`, or `nil`.
  var contentType: String?
  /// Whether the request came with `Transfer-Encoding: chunked`.
  var chunked: Bool
  /// The request's `Content-Length`, or `nil` when it had none.
  var contentLength: Int64?

  private enum CodingKeys: String, CodingKey {
    case size, sha256, contentType, chunked, contentLength
  }

  /// Encodes every key, writing `null` rather than leaving a key out.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(size, forKey: .size)
    try container.encode(sha256, forKey: .sha256)
    try container.encode(contentType, forKey: .contentType)
    try container.encode(chunked, forKey: .chunked)
    try container.encode(contentLength, forKey: .contentLength)
  }
}
#endif
