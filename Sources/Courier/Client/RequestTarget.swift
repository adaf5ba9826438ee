import Foundation

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
      let parts = endpointPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
      path = Self.join(base.path, Self.percentEncode(String(parts[0]), keeping: Self.isPathCharacter))
      if parts.count == 2, !parts[1].isEmpty {
        let inline = Self.percentEncode(String(parts[1]), keeping: Self.isQueryCharacter)
        self.query = self.query.map { $0.isEmpty ? inline : "\($0)&\(inline)" } ?? inline
      }
    }
    if !query.isEmpty {
      self.query = self.query.map { $0.isEmpty ? query : "\($0)&\(query)" } ?? query
    }
  }

  /// `scheme://` at the start of the path marks an absolute URL.
  static func isAbsolute(_ path: String) -> Bool {
    guard let colon = path.firstIndex(of: ":"), path[colon...].hasPrefix("://") else { return false }
    let scheme = path[..<colon]
    return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
  }

  /// Joins two encoded paths with exactly one slash between them.
  static func join(_ basePath: String, _ path: String) -> String {
    var base = Substring(basePath)
    while base.hasSuffix("/") { base.removeLast() }
    var relative = Substring(path)
    while relative.hasPrefix("/") { relative.removeFirst() }
    if path.isEmpty { return base.isEmpty ? "/" : String(base) }
    return "\(base)/\(relative)"
  }

  /// Percent-encodes what `keeping` does not allow, keeping valid `%XX` escapes.
  static func percentEncode(_ path: String, keeping allowed: (UInt8) -> Bool) -> String {
    let bytes = Array(path.utf8)
    var result = [UInt8]()
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%"), index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit {
        result += bytes[index...(index + 2)]
        index += 3
        continue
      }
      if allowed(byte) {
        result.append(byte)
      } else {
        result += Array("%\(String(byte, radix: 16, uppercase: true).leftPadded)".utf8)
      }
      index += 1
    }
    return String(decoding: result, as: UTF8.self)
  }
}

extension RequestTarget {
  /// RFC 3986 `pchar` plus `/`: unreserved, sub-delims, `:` and `@`.
  static func isPathCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x41...0x5A, 0x61...0x7A, 0x30...0x39: return true
    default: return "-._~!$&'()*+,;=:@/".utf8.contains(byte)
    }
  }

  /// RFC 3986 `query`: `pchar`, `/` and `?`.
  static func isQueryCharacter(_ byte: UInt8) -> Bool {
    isPathCharacter(byte) || byte == UInt8(ascii: "?")
  }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}

extension String {
  fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
