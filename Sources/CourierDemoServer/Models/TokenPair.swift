#if canImport(Hummingbird)
/// The answer of `/auth/login` and `/auth/refresh`.
@available(macOS 14, iOS 17, tvOS 17, *)
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
#endif
