#if canImport(Hummingbird)
/// `POST /auth/login` JSON body.
@available(macOS 14, iOS 17, tvOS 17, *)
struct LoginRequest: Decodable, Sendable {
  /// The account's email.
  var email: String
  /// The account's password.
  var password: String
}

/// `POST /auth/refresh` JSON body.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RefreshRequest: Decodable, Sendable {
  /// A refresh token from a previous login or refresh.
  var refreshToken: String
}

/// `POST /signup` JSON body.
@available(macOS 14, iOS 17, tvOS 17, *)
struct SignupRequest: Decodable, Sendable {
  /// Email; must contain `@`.
  var email: String
  /// Password; at least 8 characters.
  var password: String
  /// Display name; not empty, at most 100 characters.
  var name: String
}

/// `PATCH /users/me` JSON body.
@available(macOS 14, iOS 17, tvOS 17, *)
struct UpdateUserRequest: Decodable, Sendable {
  /// New display name, if it should change.
  var name: String?
}

/// `POST /posts` JSON body.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CreatePostRequest: Decodable, Sendable {
  /// Title; must not be empty.
  var title: String
  /// Body text.
  var body: String
}

/// `POST /admin/refresh-failure` JSON body.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RefreshFailureRequest: Decodable, Sendable {
  /// Whether `/auth/refresh` should answer 503.
  var enabled: Bool
}
#endif
