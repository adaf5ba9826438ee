#if canImport(Hummingbird)
import Hummingbird

/// Resolves the bearer token of a request to a user, or throws the matching 401.
@available(macOS 14, iOS 17, tvOS 17, *)
struct BearerAuth: Sendable {
  /// The state holding the tokens.
  let state: DemoState

  /// The authenticated user; 401 `unauthorized` or `token_expired` with `WWW-Authenticate: Bearer` otherwise.
  func user(for request: Request) async throws -> User {
    guard let token = Credentials.bearerToken(in: request) else {
      throw APIError.unauthorized(code: "unauthorized", "Missing bearer token")
    }
    switch await state.authenticate(accessToken: token) {
    case .user(let user):
      return user
    case .expired:
      throw APIError.unauthorized(code: "token_expired", "The access token has expired")
    case .unknown:
      throw APIError.unauthorized(code: "unauthorized", "Invalid access token")
    }
  }
}
#endif
