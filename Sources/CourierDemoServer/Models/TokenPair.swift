/// The answer of `/auth/login` and `/auth/refresh`.
struct TokenPair: Codable, Sendable, Equatable {
  /// Opaque bearer token.
  var accessToken: String
  /// Opaque single-use refresh token.
  var refreshToken: String
  /// Always `Bearer`.
  var tokenType: String = "Bearer"
  /// Lifetime of the access token in seconds.
  var expiresIn: Int
}
