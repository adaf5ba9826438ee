import Foundation
import HTTPTypes

/// Hides secrets in what the logging interceptor prints: header values, query and form values, JSON fields.
///
/// Names are compared case-insensitively; a hidden value is replaced with the placeholder and its name is kept.
package struct LogRedactor: Sendable {
  package let headers: Set<HTTPField.Name>
  /// Lowercased.
  package let queryKeys: Set<String>
  /// Lowercased.
  let bodyFields: Set<String>
  package let placeholder: String

  /// Redaction with these rules; every argument defaults to what ``LoggingInterceptor`` hides by default.
  package init(
    headers: Set<HTTPField.Name> = LoggingInterceptor.defaultRedactedHeaders,
    queryKeys: Set<String> = LoggingInterceptor.defaultRedactedKeys,
    bodyFields: Set<String> = LoggingInterceptor.defaultRedactedKeys,
    placeholder: String = "<redacted>"
  ) {
    self.headers = headers
    self.queryKeys = Set(queryKeys.map { $0.lowercased() })
    self.bodyFields = Set(bodyFields.map { $0.lowercased() })
    self.placeholder = placeholder
  }

  /// The value of `field` as it may be logged; credentials keep their scheme: `Bearer <redacted>`, and URLs in
  /// `Location`, `Content-Location` and `Referer` have the values of redacted query keys hidden.
  package func value(of field: HTTPField) -> String {
    if field.name == .location || field.name == .contentLocation || field.name == .referer {
      return pathAndQuery(field.value)
    }
    guard headers.contains(field.name) else { return field.value }
    if let scheme = Self.authorizationScheme(of: field) {
      return "\(scheme) \(placeholder)"
    }
    return placeholder
  }

  /// `Bearer` in `Bearer abc`, for the two credential headers only.
  static func authorizationScheme(of field: HTTPField) -> Substring? {
    guard field.name == .authorization || field.name == .proxyAuthorization,
      let space = field.value.firstIndex(of: " ")
    else { return nil }
    let scheme = field.value[..<space]
    guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
      return nil
    }
    return scheme
  }

  /// The request's URL with the values of redacted query keys (and any user info) hidden.
  package func url(of request: HTTPRequest) -> String {
    let target = pathAndQuery(request.path ?? "")
    guard let authority = request.authority.map(self.authority) else { return target }
    guard let scheme = request.scheme else { return authority + target }
    return "\(scheme)://\(authority)\(target)"
  }

  /// `user:password@host` becomes `<redacted>@host`.
  func authority(_ authority: String) -> String {
    guard let at = authority.lastIndex(of: "@") else { return authority }
    return placeholder + authority[at...]
  }

  /// A path with the values of redacted query keys hidden: `/login?password=<redacted>&next=%2F`.
  func pathAndQuery(_ path: String) -> String {
    guard let question = path.firstIndex(of: "?") else { return path }
    let query = path[path.index(after: question)...]
    return path[...question] + urlEncoded(query, hiding: queryKeys)
  }

  /// `a=1&password=x` with the values of `keys` hidden; the shape of query strings and form bodies.
  package func urlEncoded(_ text: some StringProtocol, hiding keys: Set<String>) -> String {
    text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
      guard let equals = pair.firstIndex(of: "="), Self.matches(pair[..<equals], keys) else { return String(pair) }
      return pair[...equals] + placeholder
    }.joined(separator: "&")
  }

  /// Whether a percent-encoded key, or one of its bracketed parts (`user[password]`), is one of `keys`.
  static func matches(_ encodedKey: some StringProtocol, _ keys: Set<String>) -> Bool {
    let raw = String(encodedKey).replacingOccurrences(of: "+", with: " ")
    let key = (raw.removingPercentEncoding ?? raw).lowercased()
    if keys.contains(key) { return true }
    return key.split(whereSeparator: { $0 == "[" || $0 == "]" }).contains { keys.contains(String($0)) }
  }

  /// Values sent with `request` that are hidden in its log lines, for scrubbing them from free text such as an
  /// error's description. Values shorter than four characters are left out: replacing them would mangle numbers.
  func secrets(in request: HTTPRequest) -> [String] {
    var secrets: [String] = []
    for field in request.headerFields where headers.contains(field.name) {
      secrets.append(field.value)
      if let scheme = Self.authorizationScheme(of: field) {
        secrets.append(String(field.value.dropFirst(scheme.count + 1)))
      }
    }
    if let path = request.path, let question = path.firstIndex(of: "?") {
      for pair in path[path.index(after: question)...].split(separator: "&") {
        guard let equals = pair.firstIndex(of: "="), Self.matches(pair[..<equals], queryKeys) else { continue }
        let value = String(pair[pair.index(after: equals)...])
        secrets.append(value)
        secrets.append((value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding) ?? value)
      }
    }
    if let authority = request.authority, let at = authority.lastIndex(of: "@") {
      secrets.append(String(authority[..<at]))
    }
    return secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
  }

  /// `text` with every occurrence of `secrets` replaced by the placeholder.
  func scrub(_ text: String, removing secrets: [String]) -> String {
    secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
  }
}
