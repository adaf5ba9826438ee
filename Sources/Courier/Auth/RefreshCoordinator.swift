import Foundation

/// Makes sure concurrent 401s lead to one refresh, and that requests starting during a refresh wait for it.
actor RefreshCoordinator {
  private let provider: any TokenProvider
  private let onUnauthorized: (@Sendable (CourierError) async -> Void)?
  private var inFlight: Task<AuthToken, any Error>?

  init(provider: any TokenProvider, onUnauthorized: (@Sendable (CourierError) async -> Void)?) {
    self.provider = provider
    self.onUnauthorized = onUnauthorized
  }

  /// The credentials to send now: those of a refresh under way (waiting for it), else the provider's.
  func credentials() async throws -> AuthToken? {
    if let inFlight { return try await inFlight.value }
    return await provider.credentials()
  }

  /// New credentials to replace `stale`, which the server rejected.
  ///
  /// Joins a refresh under way; returns credentials another request already renewed; otherwise starts the one
  /// refresh. When the refresh fails, the credentials are cleared, `onUnauthorized` runs once, and every waiting
  /// request gets ``CourierError/Kind-swift.struct/unauthorized``.
  func renewed(replacing stale: AuthToken) async throws -> AuthToken {
    if let inFlight { return try await inFlight.value }
    let task = Task { [provider, onUnauthorized] () async throws -> AuthToken in
      guard let current = await provider.credentials() else {
        throw CourierError(.unauthorized, "The credentials were cleared; sign in again")
      }
      if current.accessToken != stale.accessToken { return current }
      do {
        return try await provider.refresh()
      } catch {
        let failure = CourierError(
          .unauthorized, "The token refresh failed: \((error as? CourierError)?.detail ?? "\(error)")",
          underlyingError: error)
        await provider.clear()
        await onUnauthorized?(failure)
        throw failure
      }
    }
    inFlight = task
    defer { inFlight = nil }
    return try await task.value
  }
}
