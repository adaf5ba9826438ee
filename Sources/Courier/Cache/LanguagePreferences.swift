import Foundation

/// An `Accept-Language` value read for cache matching (RFC 9110 §12.5.4): language ranges with their qvalues.
///
/// Two values that rank the same ranges alike select the same variant, so they normalise to one string: ranges
/// grouped by qvalue, highest first, and sorted within a group (`en, de` and `de, en` are both `de, en`). The order of
/// ranges with equal qvalues says nothing (RFC 9110 §12.4.2).
struct LanguagePreferences: Equatable, Sendable {
  /// Lower-cased ranges and their qvalues in thousandths, as written.
  let ranges: [(range: String, quality: Int)]

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ranges.map(\.range) == rhs.ranges.map(\.range) && lhs.ranges.map(\.quality) == rhs.ranges.map(\.quality)
  }

  /// Reads `value` (members already trimmed, joined with `, `); `nil` when a member is not a range with at most a
  /// valid `q` parameter, so that the value is compared as written.
  init?(_ value: String) {
    var ranges: [(String, Int)] = []
    for member in value.split(separator: ",") {
      let parts = member.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let range = parts.first?.lowercased(), !range.isEmpty, parts.count <= 2,
        range.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "*") || Self.isAlphanumeric($0) })
      else { return nil }
      var quality = 1000
      if parts.count == 2 {
        let parameter = parts[1].lowercased()
        guard parameter.hasPrefix("q="), let parsed = Self.quality(parameter.dropFirst(2)) else { return nil }
        quality = parsed
      }
      ranges.append((range, quality))
    }
    guard !ranges.isEmpty else { return nil }
    self.ranges = ranges
  }

  /// The value as a variant key: groups by qvalue, highest first, each sorted; qvalues written only when below 1.
  var normalized: String {
    ranges.sorted { $0.quality != $1.quality ? $0.quality > $1.quality : $0.range < $1.range }
      .map { $0.quality == 1000 ? $0.range : "\($0.range);q=0.\(String(1000 + $0.quality).dropFirst())" }
      .joined(separator: ", ")
  }

  /// Whether every language of a `Content-Language` (its field lines) is matched by one of the ranges with the
  /// highest qvalue (basic filtering, RFC 4647 §3.3.1). An absent or empty `Content-Language` never matches.
  func prefersMost(_ contentLanguage: [String]) -> Bool {
    let tags = contentLanguage.flatMap { $0.split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    guard !tags.isEmpty, let best = ranges.map(\.quality).max(), best > 0 else { return false }
    let preferred = ranges.filter { $0.quality == best }.map(\.range)
    return tags.allSatisfy { tag in
      preferred.contains { $0 == "*" || tag == $0 || tag.hasPrefix($0 + "-") }
    }
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }

  /// A qvalue (RFC 9110 §12.4.2) in thousandths: `0`, `0.5`, `1`, `1.000`; `nil` for anything else.
  static func quality(_ text: Substring) -> Int? {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, whole == "0" || whole == "1" else { return nil }
    var fraction = parts.count == 2 ? String(parts[1]) : ""
    guard fraction.count <= 3, fraction.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      return nil
    }
    fraction += String(repeating: "0", count: 3 - fraction.count)
    let value = (whole == "1" ? 1000 : 0) + Int(fraction)!
    return value <= 1000 ? value : nil
  }
}
