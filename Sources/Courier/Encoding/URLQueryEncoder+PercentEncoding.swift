import Foundation

extension URLQueryEncoder {
  /// Joins query items into `name=value&name=value`, percent-encoding both names and values with
  /// `percentEncode(_:)`. An item whose value is `nil` is written as just its name.
  ///
  /// ```swift
  /// URLQueryEncoder.percentEncodedString([
  ///   URLQueryItem(name: "q", value: "a&b c"),
  ///   URLQueryItem(name: "debug", value: nil),
  /// ])
  /// // "q=a%26b%20c&debug"
  /// ```
  public static func percentEncodedString(_ items: [URLQueryItem]) -> String {
    var result = ""
    for (offset, item) in items.enumerated() {
      if offset > 0 { result.append("&") }
      result.append(percentEncode(item.name))
      if let value = item.value {
        result.append("=")
        result.append(percentEncode(value))
      }
    }
    return result
  }

  /// Percent-encodes one query name or value as RFC 3986 recommends.
  ///
  /// Only the unreserved characters `A`–`Z`, `a`–`z`, `0`–`9`, `-`, `.`, `_` and `~` are kept; every other
  /// byte of the string's UTF-8 form becomes `%XX` with uppercase hex digits. That includes `&`, `=`, `+`,
  /// `#`, `?`, `/`, `[`, `]`, `%` and the space (always `%20`, never `+`), so the result is safe anywhere in
  /// a query and in a form body.
  ///
  /// ```swift
  /// URLQueryEncoder.percentEncode("a b&c=d")  // "a%20b%26c%3Dd"
  /// URLQueryEncoder.percentEncode("café")     // "caf%C3%A9"
  /// ```
  public static func percentEncode(_ component: String) -> String {
    PercentEncoding.encode(component[...], keeping: PercentEncoding.unreserved)
  }
}
