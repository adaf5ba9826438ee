#if canImport(Hummingbird)
import Hummingbird

/// `POST /auth/login` and `POST /auth/refresh`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct AuthRoutes: Sendable {
  /// The server state.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .post, pattern: "/auth/login", handler: login),
      Route(method: .post, pattern: "/auth/refresh", handler: refresh),
    ]
  }

  /// Credentials from `Authorization: Basic`, a form body or a JSON body → 200 token pair, or 401.
  @Sendable func login(_ request: Request, _ context: DemoContext) async throws -> Response {
    let (email, password) = try await credentials(of: request)
    guard let pair = await state.login(email: email, password: password) else {
      throw APIError(status: .unauthorized, code: "invalid_credentials", message: "Invalid email or password")
    }
    return try JSONResponse.make(pair)
  }

  /// `{"refreshToken"}` → 200 new pair (the old refresh token stops working), 401 or 503 while failing.
  @Sendable func refresh(_ request: Request, _ context: DemoContext) async throws -> Response {
    let body = try await JSONBody.decode(RefreshRequest.self, from: request)
    switch await state.refresh(refreshToken: body.refreshToken) {
    case .refreshed(let pair):
      return try JSONResponse.make(pair)
    case .unavailable:
      throw APIError(
        status: .serviceUnavailable,
        code: "refresh_unavailable",
        message: "Token refresh is temporarily unavailable"
      )
    case .invalidToken:
      throw APIError(status: .unauthorized, code: "invalid_refresh_token", message: "Unknown or used refresh token")
    }
  }

  private func credentials(of request: Request) async throws -> (email: String, password: String) {
    if let basic = try Credentials.basic(in: request) {
      return basic
    }
    let body = try await JSONBody.bytes(of: request)
    let contentType = request.headers[.contentType]?.lowercased() ?? ""
    if contentType.hasPrefix("application/x-www-form-urlencoded") {
      return try Credentials.form(body)
    }
    guard body.readableBytes > 0 else {
      throw APIError.invalidBody("Send credentials as JSON, as a form or with Authorization: Basic")
    }
    let login = try JSONBody.decode(LoginRequest.self, from: body)
    return (login.email, login.password)
  }
}
#endif
