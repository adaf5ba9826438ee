import Courier
import Foundation

/// Reads and replaces one query parameter of the URL a page was fetched from, keeping every other parameter exactly
/// as it was encoded.
enum PageURL {
  /// The decoded value of the first parameter called `name` in `url`'s query, or `nil`.
  static func value(of name: String, in url: URL) -> String? {
    guard let query = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery else { return nil }
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      if decode(parts[0]) == name { return parts.count > 1 ? decode(parts[1]) : "" }
    }
    return nil
  }

  /// `url` with its parameter `name` set to `value`: in place of the first parameter of that name (later ones are
  /// dropped), or appended.
  static func setting(_ name: String, to value: String, in url: URL) -> URL? {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
    let replacement = "\(URLQueryEncoder.percentEncode(name))=\(URLQueryEncoder.percentEncode(value))"
    var pairs: [String] = []
    var placed = false
    for pair in (components.percentEncodedQuery ?? "").split(separator: "&") {
      let pairName = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
      if decode(pairName) == name {
        if !placed { pairs.append(replacement) }
        placed = true
      } else {
        pairs.append(String(pair))
      }
    }
    if !placed { pairs.append(replacement) }
    components.percentEncodedQuery = pairs.joined(separator: "&")
    return components.url
  }

  private static func decode(_ text: Substring) -> String {
    String(text).removingPercentEncoding ?? String(text)
  }
}
