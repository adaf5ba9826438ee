import Foundation
import HTTPTypes

/// The scheme, authority and path (with query) of a request, joined from a base URL and an endpoint's path.
struct RequestTarget: Sendable, Hashable {
  var scheme: String
  var authority: String
  /// The percent-encoded path, without the query.
  var path: String
  /// The percent-encoded query, without `?`, or `nil`.
  var query: String?

  /// The `:path` pseudo-header: path and query.
  var pathAndQuery: String {
    guard let query, !query.isEmpty else { return path }
    return "\(path)?\(query)"
  }

  /// Splits a base URL, or an absolute URL an endpoint gave, into its parts.
  init(url: URL) throws {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      throw CourierError(.invalidURL, "\"\(url.absoluteString)\" is not a valid URL")
    }
    guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      throw CourierError(.invalidURL, "\"\(url.absoluteString)\" is not an http or https URL")
    }
    guard let host = components.percentEncodedHost, !host.isEmpty else {
      throw CourierError(.invalidURL, "\"\(url.absoluteString)\" has no host")
    }
    let bracketedHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    self.scheme = scheme
    authority = components.port.map { "\(bracketedHost):\($0)" } ?? bracketedHost
    path = components.percentEncodedPath
    query = components.percentEncodedQuery
  }

  /// Joins `base` and an endpoint's `path` (or takes `path` whole when it is an absolute URL), then appends the
  /// already percent-encoded `query`.
  ///
  /// Runs on every request, so it works on UTF-8 bytes and returns the endpoint's own strings when they need no
  /// escaping, without Foundation's URL types.
  init(base: RequestTarget?, path endpointPath: String, query: String) throws {
    if Self.isAbsolute(endpointPath) {
      guard let url = URL(string: endpointPath) else {
        throw CourierError(.invalidURL, "\"\(endpointPath)\" is not a valid absolute URL")
      }
      self = try RequestTarget(url: url)
    } else {
      guard let base else {
        throw CourierError(.invalidURL, "The path \"\(endpointPath)\" is relative and no base URL is configured")
      }
      self = base
      let utf8 = endpointPath.utf8
      let mark = Self.offset(of: UInt8(ascii: "?"), in: endpointPath).map { utf8.index(utf8.startIndex, offsetBy: $0) }
      path = Self.join(
        base.path,
        PercentEncoding.encode(
          endpointPath[..<(mark ?? utf8.endIndex)], keeping: PercentEncoding.path, keepingEscapes: true))
      if let mark, utf8.index(after: mark) < utf8.endIndex {
        let inline = PercentEncoding.encode(
          endpointPath[utf8.index(after: mark)...], keeping: PercentEncoding.query, keepingEscapes: true)
        self.query = self.query.map { $0.isEmpty ? inline : "\($0)&\(inline)" } ?? inline
      }
    }
    if !query.isEmpty {
      self.query = self.query.map { $0.isEmpty ? query : "\($0)&\(query)" } ?? query
    }
    if let segment = Self.dotSegment(in: path) {
      throw CourierError(
        .invalidURL,
        "The path \"\(path)\" has a \"\(segment)\" segment; Courier sends paths as written and refuses dot segments, "
          + "which transports would resolve differently. Percent-encode the dots (%2E) to send them as data")
    }
  }

  /// The first `.` or `..` segment of `path`, or `nil` when it has none (RFC 3986 §3.3).
  static func dotSegment(in path: String) -> String? {
    var path = path
    let dots = path.withUTF8 { bytes -> Int in
      var dots = 0
      var segmentStart = true
      for byte in bytes {
        if byte == UInt8(ascii: "/") {
          if segmentStart, dots == 1 || dots == 2 { return dots }
          dots = 0
          segmentStart = true
        } else if segmentStart, byte == UInt8(ascii: "."), dots < 2 {
          dots += 1
        } else {
          segmentStart = false
          dots = 0
        }
      }
      return segmentStart ? dots : 0
    }
    return dots == 1 || dots == 2 ? String(repeating: ".", count: dots) : nil
  }

  /// The offset of the first `byte` in `text`'s UTF-8, read from its contiguous storage (a byte at a time through
  /// `String.UTF8View` costs several times as much, and this runs for every request).
  static func offset(of byte: UInt8, in text: String) -> Int? {
    var text = text
    return text.withUTF8 { $0.firstIndex(of: byte) }
  }

  /// `scheme://` at the start of the path marks an absolute URL.
  static func isAbsolute(_ path: String) -> Bool {
    var path = path
    return path.withUTF8 { bytes in
      guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon + 2 < bytes.count,
        bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
      else { return false }
      return bytes[..<colon].allSatisfy(isSchemeCharacter)
    }
  }

  /// A letter, digit, `+`, `-` or `.`: what a URL scheme is made of (RFC 3986 §3.1).
  private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
      return true
    default:
      return false
    }
  }

  /// Joins two encoded paths with exactly one slash between them.
  static func join(_ basePath: String, _ path: String) -> String {
    let slash = UInt8(ascii: "/")
    let baseBytes = basePath.utf8
    var baseEnd = baseBytes.endIndex
    while baseEnd > baseBytes.startIndex, baseBytes[baseBytes.index(before: baseEnd)] == slash {
      baseEnd = baseBytes.index(before: baseEnd)
    }
    if path.isEmpty { return baseEnd == baseBytes.startIndex ? "/" : String(basePath[..<baseEnd]) }
    let bytes = path.utf8
    var start = bytes.startIndex
    while start < bytes.endIndex, bytes[start] == slash { start = bytes.index(after: start) }
    if baseEnd == baseBytes.startIndex, start == bytes.index(after: bytes.startIndex) { return path }
    var joined = String(basePath[..<baseEnd])
    joined.reserveCapacity(baseBytes.count + bytes.count + 1)
    joined += "/"
    joined += path[start...]
    return joined
  }
}
