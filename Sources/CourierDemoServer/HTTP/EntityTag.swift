#if canImport(Hummingbird)
/// An entity tag (RFC 9110 §8.8.3): an opaque quoted string, optionally marked weak, e.g. `W/"k-v2"`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct EntityTag: Sendable, Equatable, CustomStringConvertible {
  /// The text between the quotes.
  var opaque: String
  /// Whether the tag is weak (`W/` prefix).
  var isWeak: Bool

  /// The tag as sent in `ETag` and `If-None-Match`, e.g. `"k-v2"` or `W/"k-v2"`.
  var description: String {
    (isWeak ? "W/" : "") + "\"\(opaque)\""
  }

  /// Weak comparison (RFC 9110 §8.8.3.2): the opaque parts are equal, whatever either tag's strength.
  func weaklyMatches(_ other: EntityTag) -> Bool {
    opaque == other.opaque
  }

  /// Whether `text` may appear between the quotes: `etagc` is `%x21 / %x23-7E / obs-text`, so no `"`, spaces or
  /// control characters.
  static func isValidOpaque(_ text: some StringProtocol) -> Bool {
    text.utf8.allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }
  }
}
#endif
