import Foundation
import HTTPTypes

/// Courier's cookie store (RFC 6265): keeps what servers set with `Set-Cookie` and sends it back with the requests
/// it applies to, the same way on every transport.
///
/// Every client has one in memory by default (``APIClient/Configuration/cookies``); set it to `nil` to send and keep
/// no cookies, or share one jar between clients. ``init(persistingTo:)`` keeps cookies with an expiry date in a
/// file across launches.
///
/// The jar matches domains and paths as RFC 6265 §5.1 says, keeps host-only cookies to their host, sends `Secure`
/// cookies over https only (and to loopback hosts), drops expired cookies, honours `Max-Age` over `Expires`, caps
/// lifetimes at 400 days, and refuses a `Domain` that is a public suffix (`com`, `co.uk`, `github.io`). It keeps at
/// most 50 cookies per domain and 3000 in all, and ignores a `Set-Cookie` longer than 4096 bytes. Cookies are
/// attached per request, so a redirect to another origin carries that origin's cookies, never the first one's.
public final class CookieJar: Sendable {
  private let state: Locked<[CookieJar.Cookie]>
  private let file: URL?
  private let now: @Sendable () -> Date
  /// The public suffixes to refuse as cookie domains; the shipped list, read on first use, when `nil`.
  private let suffixes: PublicSuffixList?

  /// The most cookies kept for one domain, and in all (RFC 6265 §6.1).
  static let perDomainLimit = 50
  static let totalLimit = 3000
  /// The longest `Set-Cookie` value read.
  static let lineLimit = 4096
  /// The longest a cookie lives (RFC 6265bis §5.5).
  static let longestLifetime: TimeInterval = 400 * 24 * 3600

  /// An empty jar in memory.
  public convenience init() {
    self.init(file: nil, cookies: [], now: { Date() })
  }

  /// A jar that keeps its cookies with an expiry date in `file` (JSON, rewritten atomically on every change) and
  /// starts with the ones the file holds. Session cookies stay in memory.
  ///
  /// - Throws: ``CourierError/Kind/fileSystem`` when the file exists but cannot be read or is not a cookie file;
  ///   the file is left as it is.
  public convenience init(persistingTo file: URL) throws {
    var cookies: [CookieJar.Cookie] = []
    if FileManager.default.fileExists(atPath: file.path) {
      do {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        cookies = try decoder.decode([CookieJar.Cookie].self, from: Data(contentsOf: file))
      } catch {
        throw CourierError(
          .fileSystem, "The cookie file at \(file.path) could not be read: \(error)", underlyingError: error)
      }
    }
    self.init(file: file, cookies: cookies, now: { Date() })
  }

  init(file: URL?, cookies: [CookieJar.Cookie], now: @escaping @Sendable () -> Date, suffixes: PublicSuffixList? = nil)
  {
    self.file = file
    self.now = now
    self.suffixes = suffixes
    let current = now()
    state = Locked(cookies.filter { $0.expires.map { $0 > current } ?? true })
  }

  /// Every cookie the jar holds that has not expired.
  public var cookies: [CookieJar.Cookie] {
    let current = now()
    return state.withLock { $0.filter { $0.expires.map { $0 > current } ?? true } }
  }

  /// The cookies a request to `url` carries, in the order they are sent: longer paths first, then older cookies.
  public func cookies(for url: URL) -> [CookieJar.Cookie] {
    guard let host = url.host?.lowercased() else { return [] }
    let path = url.path.isEmpty ? "/" : url.path
    let secure = Self.isSecureContext(scheme: url.scheme, host: host)
    let current = now()
    return state.withLock { cookies in
      cookies.filter { $0.applies(to: host, path: path, secure: secure, at: current) }
    }.sorted { ($0.path.count, $1.created) > ($1.path.count, $0.created) }
  }

  /// Stores `cookie`, replacing the one with the same name, domain and path.
  public func insert(_ cookie: CookieJar.Cookie) {
    update { cookies in Self.insert(cookie, into: &cookies) }
  }

  /// Reads `Set-Cookie` field values as a response from `url` carries them, and stores what they set.
  public func setCookies(_ values: [String], from url: URL) {
    guard let host = url.host?.lowercased() else { return }
    let secure = Self.isSecureContext(scheme: url.scheme, host: host)
    let current = now()
    let parsed = values.flatMap(Self.splitJoined).compactMap {
      parse($0, host: host, path: url.path, secure: secure, now: current)
    }
    guard !parsed.isEmpty else { return }
    update { cookies in
      for (cookie, expired) in parsed {
        if expired {
          cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
        } else {
          Self.insert(cookie, into: &cookies)
        }
      }
    }
  }

  /// Removes the cookies `shouldRemove` picks.
  public func removeAll(where shouldRemove: (CookieJar.Cookie) -> Bool = { _ in true }) {
    update { $0.removeAll(where: shouldRemove) }
  }

  // MARK: - Requests and responses

  /// Adds the jar's cookies for `request`'s URL to its `Cookie` field, after any the request carries.
  func attach(to request: inout HTTPRequest) {
    guard !state.withLock({ $0.isEmpty }), let url = request.url else { return }
    let cookies = cookies(for: url)
    guard !cookies.isEmpty else { return }
    var value = cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    if let own = request.headerFields[.cookie], !own.isEmpty { value = own + "; " + value }
    request.headerFields[.cookie] = value
  }

  /// Stores the cookies `response` sets for `request`'s URL.
  func store(from response: HTTPResponse, for request: HTTPRequest) {
    let values = response.headerFields[values: .setCookie]
    guard !values.isEmpty, let url = request.url else { return }
    setCookies(values, from: url)
  }

  // MARK: - Parsing (RFC 6265 §5.2, §5.3)

  /// The cookie a `Set-Cookie` value sets, and whether it expires it; `nil` when the value is ignored.
  private func parse(
    _ line: String, host: String, path requestPath: String, secure: Bool, now: Date
  ) -> (CookieJar.Cookie, expired: Bool)? {
    guard line.utf8.count <= Self.lineLimit else { return nil }
    var parts = line.split(separator: ";", omittingEmptySubsequences: false)[...]
    guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: "=") else { return nil }
    let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
    let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty, !Self.hasControlCharacter(name), !Self.hasControlCharacter(value) else { return nil }
    var expires: Date?
    var maxAge: Date?
    var domain: String?
    var path: String?
    var isSecure = false
    var isHTTPOnly = false
    var sameSite: String?
    for attribute in parts {
      let split = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let key = split[0].trimmingCharacters(in: .whitespaces).lowercased()
      let argument = split.count > 1 ? split[1].trimmingCharacters(in: .whitespaces) : ""
      switch key {
      case "expires":
        if let date = CookieDate.parse(argument) { expires = date }
      case "max-age":
        if let seconds = Self.maxAge(argument) {
          maxAge = seconds <= 0 ? .distantPast : now.addingTimeInterval(min(seconds, Self.longestLifetime))
        }
      case "domain":
        let trimmed = argument.hasPrefix(".") ? String(argument.dropFirst()) : argument
        if !trimmed.isEmpty { domain = trimmed.lowercased() }
      case "path":
        path = argument.hasPrefix("/") ? argument : nil
      case "secure":
        isSecure = true
      case "httponly":
        isHTTPOnly = true
      case "samesite":
        sameSite = ["strict": "Strict", "lax": "Lax", "none": "None"][argument.lowercased()]
      default:
        break
      }
    }
    var expiry = maxAge ?? expires
    if let date = expiry, date > now.addingTimeInterval(Self.longestLifetime) {
      expiry = now.addingTimeInterval(Self.longestLifetime)
    }
    var isHostOnly = true
    var cookieDomain = host
    if let domain {
      if (suffixes ?? .shipped).isPublicSuffix(domain) {
        guard domain == host else { return nil }
      } else {
        guard CookieJar.Cookie.domainMatches(host, domain) else { return nil }
        isHostOnly = false
        cookieDomain = domain
      }
    }
    if isSecure, !secure { return nil }
    let cookie = CookieJar.Cookie(
      name: name, value: value, domain: cookieDomain, isHostOnly: isHostOnly,
      path: path ?? CookieJar.Cookie.defaultPath(of: requestPath), expires: expiry, isSecure: isSecure,
      isHTTPOnly: isHTTPOnly, sameSite: sameSite, created: now)
    return (cookie, expiry.map { $0 <= now } ?? false)
  }

  /// The `Set-Cookie` values in `value`, which may hold several joined with commas (as `HTTPURLResponse` joins
  /// repeated fields). A comma separates two cookies when a `name=` follows it, and is not the comma after the
  /// weekday of an `Expires` date.
  ///
  /// Linear in the value's length: the attribute a comma falls in is kept as it grows, never searched for again.
  static func splitJoined(_ value: String) -> [String] {
    guard value.contains(",") else { return [value] }
    var parts: [String] = []
    var current = ""
    // The text after the last `;` of `current`: the attribute the next comma falls in.
    var attribute = ""
    var attributeHasDigit = false
    var rest = value[...]
    while let comma = rest.firstIndex(of: ",") {
      let before = rest[..<comma]
      let after = rest[rest.index(after: comma)...]
      current += before
      if let semicolon = before.lastIndex(of: ";") {
        attribute = String(before[before.index(after: semicolon)...])
        attributeHasDigit = attribute.contains(where: \.isNumber)
      } else {
        attribute += before
        attributeHasDigit = attributeHasDigit || before.contains(where: \.isNumber)
      }
      let inExpires = attribute.drop(while: isWhitespace).prefix(8).lowercased() == "expires="
      let next = after.prefix { $0 != ";" && $0 != "," }
      let startsCookie =
        next.firstIndex(of: "=").map { equals in
          let name = next[..<equals].trimmingCharacters(in: .whitespaces)
          return !name.isEmpty && !name.contains(" ")
        } ?? false
      if startsCookie, !inExpires || attributeHasDigit {
        parts.append(current)
        current = ""
        attribute = ""
        attributeHasDigit = false
      } else {
        current += ","
        attribute += ","
      }
      rest = after
    }
    parts.append(current + rest)
    return parts.map { $0.trimmingCharacters(in: .whitespaces) }
  }

  /// Whether `character` is one `trimmingCharacters(in: .whitespaces)` removes.
  private static func isWhitespace(_ character: Character) -> Bool {
    character.unicodeScalars.allSatisfy { CharacterSet.whitespaces.contains($0) }
  }

  /// `Max-Age`'s seconds: digits, optionally after a minus sign; `nil` for anything else.
  private static func maxAge(_ text: String) -> TimeInterval? {
    let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    guard digits.count <= 12, let seconds = Double(digits) else { return text.hasPrefix("-") ? -1 : .infinity }
    return text.hasPrefix("-") ? -seconds : seconds
  }

  private static func hasControlCharacter(_ text: String) -> Bool {
    text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
  }

  /// Whether cookies marked `Secure` may be set by and sent to this URL: https, or a loopback host.
  static func isSecureContext(scheme: String?, host: String) -> Bool {
    scheme?.lowercased() == "https" || CleartextPolicy.isLoopback(host)
  }

  static func isIPAddress(_ host: String) -> Bool {
    host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." })
  }

  // MARK: - Storage

  private static func insert(_ cookie: CookieJar.Cookie, into cookies: inout [CookieJar.Cookie]) {
    var cookie = cookie
    if let old = cookies.firstIndex(where: {
      $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path
    }) {
      cookie.created = cookies[old].created
      cookies.remove(at: old)
    }
    cookies.append(cookie)
    let sameDomain = cookies.indices.filter { cookies[$0].domain == cookie.domain }
    if sameDomain.count > perDomainLimit, let oldest = sameDomain.min(by: { cookies[$0].created < cookies[$1].created })
    {
      cookies.remove(at: oldest)
    }
    if cookies.count > totalLimit, let oldest = cookies.indices.min(by: { cookies[$0].created < cookies[$1].created }) {
      cookies.remove(at: oldest)
    }
  }

  /// Changes the cookies and, for a persistent jar, writes the ones with an expiry date to its file.
  private func update(_ change: (inout [CookieJar.Cookie]) -> Void) {
    let current = now()
    state.withLock { cookies in
      change(&cookies)
      cookies.removeAll { $0.expires.map { $0 <= current } ?? false }
      guard let file else { return }
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .secondsSince1970
      encoder.outputFormatting = [.sortedKeys]
      if let data = try? encoder.encode(cookies.filter { $0.expires != nil }) {
        try? data.write(to: file, options: .atomic)
      }
    }
  }
}
