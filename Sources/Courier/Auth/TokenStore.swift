import Foundation

/// Where credentials are kept between calls and launches.
///
/// Courier has three: ``InMemoryTokenStore``, ``FileTokenStore`` (a JSON file readable only by its owner) and,
/// on Apple platforms, `KeychainTokenStore`.
public protocol TokenStore: Sendable {
  /// The stored credentials, or `nil` when signed out.
  func load() async throws -> AuthToken?
  /// Replaces the stored credentials.
  func save(_ token: AuthToken) async throws
  /// Removes the stored credentials.
  func clear() async throws
}

/// Keeps credentials in memory for the life of the process.
public actor InMemoryTokenStore: TokenStore {
  private var token: AuthToken?

  /// Creates a store, optionally holding `token`.
  public init(_ token: AuthToken? = nil) {
    self.token = token
  }

  /// The credentials, if any.
  public func load() -> AuthToken? { token }
  /// Replaces the credentials.
  public func save(_ token: AuthToken) { self.token = token }
  /// Forgets the credentials.
  public func clear() { token = nil }
}
