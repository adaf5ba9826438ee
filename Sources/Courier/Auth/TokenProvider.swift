import Foundation

/// Supplies credentials to ``AuthInterceptor`` and renews them.
///
/// ``StoredTokenProvider`` covers the usual case (a ``TokenStore`` plus a refresh call); implement the protocol
/// yourself for anything else.
public protocol TokenProvider: Sendable {
  /// The credentials to send now, or `nil` when signed out.
  func credentials() async -> AuthToken?
  /// Gets new credentials. ``AuthInterceptor`` calls it at most once for all the requests that failed together.
  func refresh() async throws -> AuthToken
  /// Forgets the credentials, after a refresh failed.
  func clear() async
}

/// Credentials kept in a ``TokenStore`` and renewed by a closure that calls your refresh endpoint.
///
/// ```swift
/// let auth = StoredTokenProvider(store: InMemoryTokenStore(token)) { old in
///   let fresh = try await authClient.value(
///     Endpoint<TokenPair>.post("/auth/refresh", body: ["refreshToken": old.refreshToken ?? ""]).asTokenRefresh())
///   return AuthToken(accessToken: fresh.accessToken, refreshToken: fresh.refreshToken)
/// }
/// ```
public struct StoredTokenProvider: TokenProvider {
  /// Where the credentials live.
  public let store: any TokenStore
  private let renew: @Sendable (AuthToken) async throws -> AuthToken

  /// Creates a provider; `refresh` receives the current credentials and returns new ones.
  public init(store: any TokenStore, refresh: @escaping @Sendable (AuthToken) async throws -> AuthToken) {
    self.store = store
    renew = refresh
  }

  /// The stored credentials; `nil` when signed out or when the store cannot be read.
  public func credentials() async -> AuthToken? {
    try? await store.load()
  }

  /// Renews the stored credentials and stores the result.
  public func refresh() async throws -> AuthToken {
    guard let current = try await store.load() else {
      throw CourierError(.unauthorized, "There are no credentials to refresh")
    }
    let fresh = try await renew(current)
    try await store.save(fresh)
    return fresh
  }

  /// Removes the stored credentials.
  public func clear() async {
    try? await store.clear()
  }
}
