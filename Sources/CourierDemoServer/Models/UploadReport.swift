#if canImport(Hummingbird)
/// What `POST /upload` answers: `{"parts": [...], "totalBytes": N}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct UploadReport: Codable, Sendable, Equatable {
  /// The parts in the order sent.
  var parts: [UploadedPart]
  /// Bytes of the whole request body (delimiters and part headers included).
  var totalBytes: Int64
}

/// One part of a `multipart/form-data` upload:
/// `{"name","filename","contentType","size","sha256","value"}`, with `null` for what is absent.
@available(macOS 14, iOS 17, tvOS 17, *)
struct UploadedPart: Codable, Sendable, Equatable {
  /// The decoded field name.
  var name: String
  /// The decoded file name (`filename*` preferred), or `nil` for a plain field.
  var filename: String?
  /// The part's `Content-Type`, or `nil`.
  var contentType: String?
  /// Bytes in the part's body.
  var size: Int64
  /// SHA-256 of the part's body, lowercase hex.
  var sha256: String
  /// The body as text for a plain field of at most 1 KiB that is valid UTF-8, otherwise `nil`.
  var value: String?

  private enum CodingKeys: String, CodingKey {
    case name, filename, contentType, size, sha256, value
  }

  /// Encodes every key, writing `null` rather than leaving a key out.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(filename, forKey: .filename)
    try container.encode(contentType, forKey: .contentType)
    try container.encode(size, forKey: .size)
    try container.encode(sha256, forKey: .sha256)
    try container.encode(value, forKey: .value)
  }
}
#endif
