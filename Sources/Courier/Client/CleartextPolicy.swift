import Foundation
import HTTPTypes

/// Which hosts a client may send plain `http` to. Anything sent over plain http — tokens, cookies, personal data —
/// can be read and changed by anyone on the way, so Courier refuses it for every host but loopback unless you allow
/// it, as Apple's App Transport Security does.
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "http://printer.local")) {
///   $0.cleartext = .allowing(["printer.local"])
/// }
/// ```
///
/// Redirects from https to http are refused whatever the policy (see ``RedirectPolicy``).
public struct CleartextPolicy: Sendable, Hashable {
  private let allowsEveryHost: Bool
  private let hosts: Set<String>

  /// Plain http to loopback hosts only (`127.0.0.0/8`, `::1`, `localhost`): the default.
  public static let loopbackOnly = CleartextPolicy(allowsEveryHost: false, hosts: [])
  /// Plain http to any host.
  public static let allowAll = CleartextPolicy(allowsEveryHost: true, hosts: [])

  /// Plain http to loopback and to `hosts` (names or addresses, compared without case; `*.example.com` allows the
  /// names under `example.com`).
  public static func allowing(_ hosts: Set<String>) -> CleartextPolicy {
    CleartextPolicy(allowsEveryHost: false, hosts: Set(hosts.map { $0.lowercased() }))
  }

  /// Whether plain http to `host` is allowed.
  func allows(_ host: String) -> Bool {
    let host = host.lowercased()
    if allowsEveryHost || Self.isLoopback(host) || hosts.contains(host) { return true }
    return hosts.contains { $0.hasPrefix("*.") && host.hasSuffix($0.dropFirst()) }
  }

  /// The error for a plain-http request this policy does not allow, or `nil`.
  func refusal(of request: HTTPRequest) -> CourierError? {
    guard request.scheme?.lowercased() == "http", let url = request.url, let host = url.host, !allows(host) else {
      return nil
    }
    return CourierError(
      .invalidRequest,
      "Plain http to \(host) is refused: the request would cross the network unencrypted. Use https, or allow it "
        + "with `configuration.cleartext = .allowing([\"\(host)\"])` (or `.allowAll`)",
      request: request)
  }

  /// Whether `host` names this machine: `localhost` (and names under it), `127.0.0.0/8` and `::1`.
  static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased()
    return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "[::1]"
      || (host.hasPrefix("127.") && host.split(separator: ".").count == 4
        && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
  }
}
