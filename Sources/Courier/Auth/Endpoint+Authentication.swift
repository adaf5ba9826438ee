/// How ``AuthInterceptor`` treats a call.
enum AuthenticationKey: AttributeKey {
  enum Mode: Sendable, Hashable {
    /// Credentials are attached, and refreshed once on a rejection.
    case required
    /// The call carries its own credentials, or none.
    case omitted
    /// The call is the token refresh itself: never authenticated, and a rejection never triggers another refresh.
    case tokenRefresh
  }

  static let defaultValue = Mode.required
}

extension Endpoint {
  /// Sends this endpoint without credentials (login, signup, public data).
  public func withoutAuthentication() -> Endpoint {
    attribute(AuthenticationKey.self, .omitted)
  }

  /// Marks this endpoint as the token refresh call: it is sent without the stored credentials and a 401 to it
  /// never triggers another refresh.
  public func asTokenRefresh() -> Endpoint {
    attribute(AuthenticationKey.self, .tokenRefresh)
  }
}
