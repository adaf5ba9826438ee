import Foundation
import HTTPTypes
import HTTPTypesFoundation

/// Which hosts a client may send plain `http` to, from ``APIClient/Configuration/cleartextHosts``.
package struct CleartextPolicy: Sendable, Hashable {
  private let allowsEveryHost: Bool
  private let hosts: Set<String>

  /// The policy for `hosts`: `*` allows every host, `*.example.com` the names under `example.com`, anything else
  /// one name or address (compared without case); loopback is always allowed.
  package init(hosts: Set<String>) {
    allowsEveryHost = hosts.contains("*")
    self.hosts = Set(hosts.map { $0.lowercased() })
  }

  /// Whether plain http to `host` is allowed.
  func allows(_ host: String) -> Bool {
    let host = host.lowercased()
    if allowsEveryHost || Self.isLoopback(host) || hosts.contains(host) { return true }
    return hosts.contains { $0.hasPrefix("*.") && host.hasSuffix($0.dropFirst()) }
  }

  /// The error for a plain-http request this policy does not allow, or `nil`.
  func refusal(of request: HTTPRequest) -> CourierError? {
    guard !allowsEveryHost, let scheme = request.scheme, Self.isHTTP(scheme), let authority = request.authority,
      !Self.isLoopbackAuthority(authority), let host = Self.host(of: authority), !allows(host)
    else {
      return nil
    }
    return CourierError(
      .invalidRequest,
      "Plain http to \(host) is refused: the request would cross the network unencrypted. Use https, or allow it "
        + "with `configuration.cleartextHosts = [\"\(host)\"]` (or `[\"*\"]` for every host)",
      request: request)
  }

  /// `http` in any case, without allocating.
  private static func isHTTP(_ scheme: String) -> Bool {
    var bytes = scheme.utf8.makeIterator()
    for expected in "http".utf8 {
      guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
    }
    return bytes.next() == nil
  }

  /// The common loopback authorities (`127.0.0.1`, `localhost`, `[::1]`, with or without a port), recognised without
  /// allocating; anything else goes the long way.
  private static func isLoopbackAuthority(_ authority: String) -> Bool {
    var authority = authority
    return authority.withUTF8 { bytes in
      isAuthority(bytes, of: "127.0.0.1") || isAuthority(bytes, of: "localhost") || isAuthority(bytes, of: "[::1]")
    }
  }

  /// Whether `bytes` are `host`, alone or followed by a port.
  private static func isAuthority(_ bytes: UnsafeBufferPointer<UInt8>, of host: StaticString) -> Bool {
    let count = host.utf8CodeUnitCount
    guard bytes.count == count || (bytes.count > count && bytes[count] == UInt8(ascii: ":")) else { return false }
    return UnsafeBufferPointer(start: host.utf8Start, count: count).elementsEqual(bytes[..<count])
  }

  /// The host of an authority (`user@host:port`, `[::1]:80`), without user info, port or brackets.
  package static func host(of authority: String) -> String? {
    var rest = Substring(authority)
    if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
      return String(rest[rest.index(after: rest.startIndex)..<close])
    }
    if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
    return rest.isEmpty ? nil : String(rest)
  }

  /// Whether `host` names this machine: `localhost` (and names under it), `127.0.0.0/8` and `::1`.
  static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased()
    return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "[::1]"
      || (host.hasPrefix("127.") && host.split(separator: ".").count == 4
        && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
  }
}
