import Foundation

/// Credentials kept in a ``TokenStore`` and renewed by a closure that calls the refresh endpoint: what
/// ``AuthInterceptor/init(store:refreshStatuses:refresh:onUnauthorized:)`` builds.
package struct StoredTokenProvider: TokenProvider {
  /// Where the credentials live.
  package let store: TokenStore
  private let renew: @Sendable (AuthToken) async throws -> AuthToken

  /// Creates a provider; `refresh` receives the current credentials and returns new ones.
  package init(store: TokenStore, refresh: @escaping @Sendable (AuthToken) async throws -> AuthToken) {
    self.store = store
    renew = refresh
  }

  /// The stored credentials; `nil` when signed out or when the store cannot be read.
  package func credentials() async -> AuthToken? {
    try? await store.load()
  }

  /// Renews the stored credentials and stores the result.
  package func refresh() async throws -> AuthToken {
    guard let current = try await store.load() else {
      throw CourierError(.unauthorized, "There are no credentials to refresh")
    }
    let fresh = try await renew(current)
    try await store.save(fresh)
    return fresh
  }

  /// Removes the stored credentials.
  package func clear() async {
    try? await store.clear()
  }
}
