import Foundation

extension CookieJar {
  /// One cookie as a ``CookieJar`` keeps it (RFC 6265 §5.3): what the server set, where it applies, and until when.
  public struct Cookie: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The cookie's name.
    public var name: String
    /// The cookie's value, as the server sent it.
    public var value: String
    /// The host the cookie belongs to, lowercased, without a leading dot.
    public var domain: String
    /// Whether the cookie goes to ``domain`` alone (no `Domain` attribute), or to its subdomains too.
    public var isHostOnly: Bool
    /// The path the cookie applies under.
    public var path: String
    /// When the cookie expires; `nil` for a session cookie, which lives as long as the jar.
    public var expires: Date?
    /// Whether the cookie is sent over https only (and to loopback hosts, which are secure by nature).
    public var isSecure: Bool
    /// Whether the server marked the cookie `HttpOnly`. Every cookie of an HTTP client is used by HTTP only; the flag
    /// is kept for whoever reads the jar.
    public var isHTTPOnly: Bool
    /// The `SameSite` attribute as the server sent it (`Strict`, `Lax` or `None`), or `nil`. An API client has no
    /// sites to compare, so it is kept, not enforced.
    public var sameSite: String?
    /// When the cookie was first stored; older cookies go first among cookies of the same path length.
    public var created: Date

    /// Creates a cookie. A ``CookieJar`` makes these from `Set-Cookie` fields; this initializer is for cookies you add
    /// yourself.
    public init(
      name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/", expires: Date? = nil,
      isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: String? = nil, created: Date = Date()
    ) {
      self.name = name
      self.value = value
      self.domain = domain.lowercased()
      self.isHostOnly = isHostOnly
      self.path = path
      self.expires = expires
      self.isSecure = isSecure
      self.isHTTPOnly = isHTTPOnly
      self.sameSite = sameSite
      self.created = created
    }

    /// `name=value; Domain=…; Path=…`, without the value when it is long.
    public var description: String {
      var text = "\(name)=\(value.count > 32 ? String(value.prefix(29)) + "..." : value); Domain=\(domain)"
      text += "; Path=\(path)"
      if let expires { text += "; Expires=\(expires)" }
      if isSecure { text += "; Secure" }
      if isHTTPOnly { text += "; HttpOnly" }
      if let sameSite { text += "; SameSite=\(sameSite)" }
      return text
    }

    /// Whether the cookie goes with a request to `url` at `now` (RFC 6265 §5.4).
    func applies(to host: String, path requestPath: String, secure: Bool, at now: Date) -> Bool {
      if let expires, expires <= now { return false }
      if isSecure, !secure { return false }
      guard isHostOnly ? host == domain : Self.domainMatches(host, domain) else { return false }
      return Self.pathMatches(requestPath, path)
    }

    /// RFC 6265 §5.1.3: `host` is `domain`, or a name under it (never an IP address).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
      if host == domain { return true }
      guard host.hasSuffix("." + domain), !CookieJar.isIPAddress(host) else { return false }
      return true
    }

    /// RFC 6265 §5.1.4: `requestPath` is `cookiePath`, or lies under it.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
      if requestPath == cookiePath { return true }
      guard requestPath.hasPrefix(cookiePath) else { return false }
      return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
    }

    /// RFC 6265 §5.1.4: the directory of the request path, the path a cookie without `Path` applies under.
    static func defaultPath(of requestPath: String) -> String {
      guard requestPath.hasPrefix("/"), let slash = requestPath.lastIndex(of: "/"), slash != requestPath.startIndex
      else {
        return "/"
      }
      return String(requestPath[..<slash])
    }
  }
}
