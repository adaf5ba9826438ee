import Foundation

/// A redirect's `Location` as the URL to follow.
enum RedirectLocation {
  /// `location` resolved against `base`, once what RFC 3986 does not allow in a URI reference — spaces, other
  /// controls, non-ASCII bytes, `"<>\^`{|}`, a `%` that starts no escape, a second `#` — is percent-encoded, so that a
  /// redirect is followed the same everywhere: `URL(string:)` refuses such text on iOS 16 and macOS 13 and encodes it
  /// on later systems and on Linux. Valid `%XX` escapes are kept as they are.
  static func url(_ location: String, relativeTo base: URL) -> URL? {
    let text = location.trimmingCharacters(in: .whitespaces)
    var encoded: String
    if let hash = text.firstIndex(of: "#") {
      encoded = PercentEncoding.encode(
        text[..<hash], keeping: PercentEncoding.reference, keepingEscapes: true)
      encoded +=
        "#"
        + PercentEncoding.encode(
          text[text.index(after: hash)...], keeping: PercentEncoding.query, keepingEscapes: true)
    } else {
      encoded = PercentEncoding.encode(text[...], keeping: PercentEncoding.reference, keepingEscapes: true)
    }
    return URL(string: encoded, relativeTo: base)?.absoluteURL
  }
}
