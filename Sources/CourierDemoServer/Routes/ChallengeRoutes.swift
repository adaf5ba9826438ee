#if canImport(Hummingbird)
import Hummingbird

/// `GET /challenge/{scheme}`: answers 401 with a `WWW-Authenticate` challenge of that scheme (`basic`, `digest`,
/// `negotiate`, `bearer`) and a JSON error body, whatever credentials the request carries; `?proxy=1` answers 407
/// with `Proxy-Authenticate` instead.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ChallengeRoutes: Sendable {
  /// The challenge sent for each scheme.
  static let challenges: [String: String] = [
    "basic": #"Basic realm="demo""#,
    "digest":
      #"Digest realm="demo", qop="auth", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9""#,
    "negotiate": "Negotiate",
    "bearer": #"Bearer realm="demo", error="invalid_token""#,
  ]

  /// The routes.
  var routes: [Route] {
    [Route(method: .get, pattern: "/challenge/{scheme}", handler: challenge)]
  }

  /// Sends the challenge.
  @Sendable func challenge(_ request: Request, _ context: DemoContext) async throws -> Response {
    let scheme = context.parameters.get("scheme") ?? ""
    guard let challenge = Self.challenges[scheme] else {
      throw APIError.invalidParameter(
        "scheme", "Scheme must be one of \(Self.challenges.keys.sorted().joined(separator: ", ")), got '\(scheme)'")
    }
    let proxy = QueryString(raw: request.uri.query).first("proxy") == "1"
    var response = try JSONResponse.make(
      ErrorBody(code: "unauthorized", error: "Credentials required (\(scheme))"),
      status: proxy ? .proxyAuthenticationRequired : .unauthorized)
    response.headers[proxy ? .proxyAuthenticate : .wwwAuthenticate] = challenge
    return response
  }
}
#endif
