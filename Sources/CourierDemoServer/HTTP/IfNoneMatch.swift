#if canImport(Hummingbird)
/// The value of a request's `If-None-Match` (RFC 9110 §13.1.2): `*` or a list of entity tags.
@available(macOS 14, iOS 17, tvOS 17, *)
enum IfNoneMatch: Sendable, Equatable {
  /// `*`: matches whenever the resource has a current representation.
  case any
  /// The listed tags; members that are not entity tags are dropped.
  case tags([EntityTag])

  /// Parses every `If-None-Match` field value (several fields form one list), or returns `nil` when there is none.
  ///
  /// Parsing is lenient: a member that is not `*` or an entity tag (say `abc` without quotes) is skipped up to the
  /// next comma; a `*` member anywhere makes the whole field `*`.
  init?(fieldValues: [String]) {
    guard !fieldValues.isEmpty else { return nil }
    var tags: [EntityTag] = []
    for value in fieldValues {
      var scanner = Substring(value)
      while let member = Self.nextMember(&scanner) {
        switch member {
        case .any:
          self = .any
          return
        case .tag(let tag):
          tags.append(tag)
        case .invalid:
          continue
        }
      }
    }
    self = .tags(tags)
  }

  /// Whether `current` matches: weak comparison against any listed tag, or `*`.
  ///
  /// - Parameter current: The representation's tag, or `nil` when it has none (then only `*` matches).
  func matches(_ current: EntityTag?) -> Bool {
    switch self {
    case .any:
      return true
    case .tags(let tags):
      guard let current else { return false }
      return tags.contains { $0.weaklyMatches(current) }
    }
  }

  private enum Member {
    case any
    case tag(EntityTag)
    case invalid
  }

  /// Reads the member at the start of `text` (after optional whitespace and commas) and the comma that ends it.
  private static func nextMember(_ text: inout Substring) -> Member? {
    text = text.drop { $0 == " " || $0 == "\t" || $0 == "," }
    guard !text.isEmpty else { return nil }
    let member: Member
    if text.hasPrefix("*") {
      text = text.dropFirst()
      member = .any
    } else {
      let isWeak = text.hasPrefix("W/")
      let quoted = isWeak ? text.dropFirst(2) : text
      if quoted.hasPrefix("\""), let close = quoted.dropFirst().firstIndex(of: "\"") {
        let opaque = quoted[quoted.index(after: quoted.startIndex)..<close]
        text = quoted[quoted.index(after: close)...]
        member = EntityTag.isValidOpaque(opaque) ? .tag(EntityTag(opaque: String(opaque), isWeak: isWeak)) : .invalid
      } else {
        member = .invalid
      }
    }
    // Anything between the member and the next comma makes it invalid (e.g. `"a"b`).
    let rest = text.prefix { $0 != "," }
    text = text[rest.endIndex...]
    return rest.allSatisfy({ $0 == " " || $0 == "\t" }) ? member : .invalid
  }
}
#endif
