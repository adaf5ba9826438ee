import Foundation

/// How bodies are kept in an archive: UTF-8 text as is, anything else in base64.
enum HARBodyCoding {
  /// Media types whose bodies are kept in base64 even when their bytes happen to be valid UTF-8.
  private static let binaryPrefixes = [
    "image/", "audio/", "video/", "font/", "application/octet-stream", "application/pdf", "application/zip",
    "application/gzip", "application/protobuf", "application/x-protobuf",
  ]

  /// The body as text (redacted with `redact`) or as base64, with the encoding to write (`nil` or `base64`).
  static func encode(_ data: Data, mimeType: String, redact: (String) -> String) -> (text: String, encoding: String?) {
    let type = mimeType.lowercased()
    if !binaryPrefixes.contains(where: type.hasPrefix), let text = String(data: data, encoding: .utf8) {
      return (redact(text), nil)
    }
    return (data.base64EncodedString(), "base64")
  }

  /// The bytes of a recorded body; empty when there is no text or the base64 is broken.
  static func decode(text: String?, encoding: String?) -> Data {
    guard let text else { return Data() }
    if encoding?.lowercased() == "base64" { return Data(base64Encoded: text) ?? Data() }
    return Data(text.utf8)
  }
}
