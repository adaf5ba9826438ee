#if canImport(Hummingbird)
import HTTPTypes
import Hummingbird

/// Cookies, as httpbin serves them: `/cookies/set?name=value…` sets each pair (`Path=/`) and redirects to
/// `/cookies`, which answers `{"cookies": {name: value}}` from the request's `Cookie` field;
/// `/cookies/delete?name…` expires each named cookie and redirects there too.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CookieRoutes: Sendable {
  /// The cookies a request carries.
  struct Cookies: Encodable, Sendable {
    var cookies: [String: String]
  }

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .get, pattern: "/cookies", handler: list),
      Route(method: .get, pattern: "/cookies/set", handler: set),
      Route(method: .get, pattern: "/cookies/delete", handler: delete),
    ]
  }

  @Sendable func list(_ request: Request, _ context: DemoContext) async throws -> Response {
    var cookies: [String: String] = [:]
    for line in request.headers[values: .cookie] {
      for pair in line.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { continue }
        cookies[name] = parts.count > 1 ? String(parts[1]) : ""
      }
    }
    return try JSONResponse.make(Cookies(cookies: cookies))
  }

  @Sendable func set(_ request: Request, _ context: DemoContext) async throws -> Response {
    let items = QueryString(raw: request.uri.query).items.filter { Self.isToken($0.name) && Self.isValue($0.value) }
    return Self.redirect(setting: items.map { "\($0.name)=\($0.value); Path=/" })
  }

  @Sendable func delete(_ request: Request, _ context: DemoContext) async throws -> Response {
    let names = QueryString(raw: request.uri.query).items.map(\.name).filter(Self.isToken)
    return Self.redirect(setting: names.map { "\($0)=; Max-Age=0; Path=/" })
  }

  private static func redirect(setting cookies: [String]) -> Response {
    var headers = HTTPFields()
    headers[.location] = "/cookies"
    for cookie in cookies { headers.append(HTTPField(name: HTTPField.Name.setCookie, value: cookie)) }
    return JSONResponse.empty(status: .found, headers: headers)
  }

  private static func isToken(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { (0x21...0x7E).contains($0) && !"()<>@,;:\\\"/[]?={}".utf8.contains($0) }
  }

  private static func isValue(_ text: String) -> Bool {
    text.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") }
  }
}
#endif
