import Foundation

/// The public suffixes (`com`, `co.uk`, `github.io`, …) under which anyone may register a name, from the Public
/// Suffix List (https://publicsuffix.org, Mozilla Public License 2.0) shipped as a resource of Courier. A cookie may
/// not claim one as its `Domain`, or `example.co.uk` could set cookies for every `.co.uk` site.
///
/// `Scripts/update-public-suffix-list.sh` refreshes the resource. Rules are matched against ASCII host names (URLs
/// carry internationalized names in their punycode form); the list's Unicode rules therefore never match, and a
/// single-label name always counts as a public suffix (the list's default rule `*`).
struct PublicSuffixList: Sendable {
  private let rules: Set<String>
  private let wildcards: Set<String>
  private let exceptions: Set<String>

  /// The list shipped with Courier; an empty list (the default rule alone) when the resource cannot be read.
  static let shipped: PublicSuffixList = {
    guard let url = Bundle.module.url(forResource: "public_suffix_list", withExtension: "dat"),
      let text = try? String(contentsOf: url, encoding: .utf8)
    else {
      return PublicSuffixList(text: "")
    }
    return PublicSuffixList(text: text)
  }()

  /// Reads the list's text format: one rule per line, `//` comments, `*.` wildcards and `!` exceptions.
  init(text: String) {
    var rules: Set<String> = []
    var wildcards: Set<String> = []
    var exceptions: Set<String> = []
    // Byte-wise: the list is 10,000 lines, and Character properties make reading it slow.
    for line in text.utf8.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
      guard let rule = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).first,
        !rule.starts(with: "//".utf8)
      else { continue }
      let lowered = String(decoding: rule, as: UTF8.self).lowercased()
      if lowered.hasPrefix("!") {
        exceptions.insert(String(lowered.dropFirst()))
      } else if lowered.hasPrefix("*.") {
        wildcards.insert(String(lowered.dropFirst(2)))
      } else {
        rules.insert(lowered)
      }
    }
    self.rules = rules
    self.wildcards = wildcards
    self.exceptions = exceptions
  }

  /// Whether `domain` (lowercased, no leading dot) is itself a public suffix.
  func isPublicSuffix(_ domain: String) -> Bool {
    if exceptions.contains(domain) { return false }
    if rules.contains(domain) { return true }
    guard let dot = domain.firstIndex(of: ".") else { return true }
    return wildcards.contains(String(domain[domain.index(after: dot)...]))
  }
}
