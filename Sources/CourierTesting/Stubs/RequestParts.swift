import Foundation
import HTTPTypes

/// A request's target split into the parts stubs and recordings compare: scheme, host, path and query items.
struct RequestParts: Sendable {
  /// Lowercased.
  var scheme: String
  /// Lowercased.
  var authority: String
  /// Percent-encoded, without the query.
  var path: String
  /// Percent-encoded, without `?`; `nil` when there is none.
  var rawQuery: String?
  /// Decoded, in order.
  var query: [(name: String, value: String?)]

  init(_ request: HTTPRequest) {
    scheme = request.scheme?.lowercased() ?? ""
    authority = request.authority?.lowercased() ?? ""
    let target = request.path ?? "/"
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    path = String(parts.first ?? "")
    rawQuery = parts.count == 2 ? String(parts[1]) : nil
    query = rawQuery.map(Self.queryItems) ?? []
  }

  /// `a=1&b&c=%20` as decoded `(name, value)` pairs; a name without `=` has no value.
  static func queryItems(_ query: some StringProtocol) -> [(name: String, value: String?)] {
    query.split(separator: "&").map { pair in
      guard let equals = pair.firstIndex(of: "=") else { return (pair.percentDecoded, nil) }
      return (pair[..<equals].percentDecoded, pair[pair.index(after: equals)...].percentDecoded)
    }
  }
}
