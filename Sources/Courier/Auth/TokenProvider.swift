import Foundation

/// Supplies credentials to ``AuthInterceptor`` and renews them.
///
/// ``AuthInterceptor/init(store:refreshStatuses:refresh:onUnauthorized:)`` covers the usual case (a ``TokenStore``
/// plus a refresh call); implement the protocol yourself for anything else.
///
/// ```swift
/// struct SessionTokens: TokenProvider {
///   let session: Session
///   func credentials() async -> AuthToken? { await session.token }
///   func refresh() async throws -> AuthToken { try await session.renew() }
///   func clear() async { await session.signOut() }
/// }
/// let auth = AuthInterceptor(provider: SessionTokens(session: session))
/// ```
public protocol TokenProvider: Sendable {
  /// The credentials to send now, or `nil` when signed out.
  func credentials() async -> AuthToken?
  /// Gets new credentials. ``AuthInterceptor`` calls it at most once for all the requests that failed together.
  func refresh() async throws -> AuthToken
  /// Forgets the credentials, after a refresh failed.
  func clear() async
}
