import Courier
import Foundation

/// Reads a `Link` field value (RFC 8288 §3) leniently, in the spirit of its Appendix B:
///
/// ```
/// Link       = #link-value
/// link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
/// link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
/// ```
///
/// Parameter names are lowercased, quoted strings unescaped, and extended values (`title*=UTF-8'en'%E2%82%AC`,
/// RFC 8187) percent-decoded. A link-value that does not start with `<` is skipped up to the next comma outside
/// quotes; an unterminated `<` ends the parse.
struct WebLinkParser {
  private let scalars: [Unicode.Scalar]
  private var position = 0

  init(_ fieldValue: String) {
    scalars = Array(fieldValue.unicodeScalars)
  }

  mutating func parseLinks() -> [WebLink] {
    var links: [WebLink] = []
    while true {
      skip { $0 == "," || Self.isWhitespace($0) }
      guard let first = current else { break }
      guard first == "<" else {
        skipPastNextComma()
        continue
      }
      position += 1
      guard let close = scalars[position...].firstIndex(of: ">") else { break }
      let target = String(String.UnicodeScalarView(scalars[position..<close]))
      position = close + 1
      links.append(WebLink(target: target.trimmingCharacters(in: .whitespaces), parameters: parseParameters()))
      skipPastNextComma()
    }
    return links
  }

  private var current: Unicode.Scalar? {
    position < scalars.count ? scalars[position] : nil
  }

  private mutating func parseParameters() -> [WebLink.Parameter] {
    var parameters: [WebLink.Parameter] = []
    while true {
      skip(Self.isWhitespace)
      guard current == ";" else { return parameters }
      position += 1
      skip(Self.isWhitespace)
      let name = read { $0 != "=" && $0 != ";" && $0 != "," && !Self.isWhitespace($0) }.lowercased()
      skip(Self.isWhitespace)
      var value = ""
      if current == "=" {
        position += 1
        skip(Self.isWhitespace)
        value = current == "\"" ? readQuotedString() : read { $0 != ";" && $0 != "," && !Self.isWhitespace($0) }
      }
      guard !name.isEmpty else { continue }
      if name.hasSuffix("*") { value = Self.decodeExtendedValue(value) ?? value }
      parameters.append(WebLink.Parameter(name: name, value: value))
    }
  }

  /// Reads `"…"` from the opening quote, unescaping `\x`; an unterminated string runs to the end.
  private mutating func readQuotedString() -> String {
    position += 1
    var value = String.UnicodeScalarView()
    while let scalar = current {
      position += 1
      if scalar == "\"" { break }
      if scalar == "\\", let escaped = current {
        position += 1
        value.append(escaped)
      } else {
        value.append(scalar)
      }
    }
    return String(value)
  }

  /// Moves past the comma that ends the current link-value, ignoring commas inside quoted strings.
  private mutating func skipPastNextComma() {
    var quoted = false
    while let scalar = current {
      position += 1
      if quoted, scalar == "\\" {
        position += 1
      } else if scalar == "\"" {
        quoted.toggle()
      } else if scalar == ",", !quoted {
        return
      }
    }
  }

  private mutating func read(while predicate: (Unicode.Scalar) -> Bool) -> String {
    let start = position
    skip(predicate)
    return String(String.UnicodeScalarView(scalars[start..<position]))
  }

  private mutating func skip(_ predicate: (Unicode.Scalar) -> Bool) {
    while let scalar = current, predicate(scalar) { position += 1 }
  }

  private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t"
  }

  /// `charset'language'value` with a percent-encoded value (RFC 8187); only UTF-8 is decoded.
  static func decodeExtendedValue(_ text: String) -> String? {
    let parts = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].lowercased() == "utf-8" else { return nil }
    return String(parts[2]).removingPercentEncoding
  }
}
