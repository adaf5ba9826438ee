import Courier

/// The fluent request builder's name: an `Endpoint`, built by chaining modifiers.
///
/// ```swift
/// let login = APIRequest<LoginResponse>("auth/login")
///   .method(.post)
///   .basicAuth(email: email, password: password)
///   .message(for: .unauthorized, "Wrong email or password")
/// let tokens = try await client.value(login)
///
/// let created = APIRequest<Post>("posts").method(.post).body(json: draft).expect(.created)
/// let deleted = APIRequest<EmptyBody>("posts/3").method(.delete).expect(.noContent)
/// ```
///
/// Group them by controller, as the app sees its API:
///
/// ```swift
/// enum API {
///   static let auth = AuthController()
/// }
/// struct AuthController {
///   func login(email: String, password: String) -> APIRequest<LoginResponse> {
///     APIRequest("auth/login").method(.post).basicAuth(email: email, password: password)
///   }
/// }
/// let tokens = try await client.value(API.auth.login(email: email, password: password))
/// ```
public typealias APIRequest<Value: Decodable & Sendable> = Endpoint<Value>

extension Endpoint {
  /// Sends `Authorization: Basic` with an email (or user name) and a password, and marks the call as one that
  /// carries its own credentials, so an `AuthInterceptor` leaves it alone.
  ///
  /// ```swift
  /// APIRequest<LoginResponse>("auth/login").method(.post).basicAuth(email: "ada@example.com", password: secret)
  /// ```
  public func basicAuth(email: String, password: String) -> Endpoint {
    header(.authorization(username: email, password: password)).withoutAuthentication()
  }

  /// Sends `Authorization: Bearer <token>`, and marks the call as one that carries its own credentials, so an
  /// `AuthInterceptor` leaves it alone.
  ///
  /// ```swift
  /// APIRequest<User>("users/me").bearer(session.accessToken)
  /// ```
  public func bearer(_ token: String) -> Endpoint {
    header(.authorization(bearer: token)).withoutAuthentication()
  }
}
