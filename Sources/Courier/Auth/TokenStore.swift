import Foundation

/// Where credentials are kept between calls and launches.
///
/// Courier has three: ``TokenStore/inMemory(_:)``, ``TokenStore/file(at:)`` (a JSON file readable only by its owner)
/// and, on Apple platforms, `TokenStore.keychain(service:account:accessGroup:accessibility:)`. For anything else,
/// pass your own three closures to ``TokenStore/init(load:save:clear:)``.
///
/// ```swift
/// let store = TokenStore.file(at: appSupport.appendingPathComponent("credentials.json"))
/// try await store.save(AuthToken(accessToken: pair.accessToken, refreshToken: pair.refreshToken))
/// let auth = AuthInterceptor(store: store) { old in try await renew(old) }
/// ```
public struct TokenStore: Sendable {
  private let loadToken: @Sendable () async throws -> AuthToken?
  private let saveToken: @Sendable (AuthToken) async throws -> Void
  private let clearToken: @Sendable () async throws -> Void

  /// Creates a store that keeps credentials wherever the closures put them.
  ///
  /// ```swift
  /// let store = TokenStore(
  ///   load: { try await vault.token(named: "api") },
  ///   save: { try await vault.setToken($0, named: "api") },
  ///   clear: { try await vault.removeToken(named: "api") })
  /// ```
  ///
  /// - Parameters:
  ///   - load: Returns the stored credentials, or `nil` when signed out.
  ///   - save: Replaces the stored credentials.
  ///   - clear: Removes the stored credentials.
  public init(
    load: @escaping @Sendable () async throws -> AuthToken?,
    save: @escaping @Sendable (AuthToken) async throws -> Void,
    clear: @escaping @Sendable () async throws -> Void
  ) {
    loadToken = load
    saveToken = save
    clearToken = clear
  }

  /// The stored credentials, or `nil` when signed out.
  public func load() async throws -> AuthToken? {
    try await loadToken()
  }

  /// Replaces the stored credentials.
  public func save(_ token: AuthToken) async throws {
    try await saveToken(token)
  }

  /// Removes the stored credentials.
  public func clear() async throws {
    try await clearToken()
  }
}

extension TokenStore {
  /// Keeps credentials in memory for the life of the process, starting with `token`.
  ///
  /// ```swift
  /// let store = TokenStore.inMemory(AuthToken(accessToken: pair.accessToken, refreshToken: pair.refreshToken))
  /// ```
  public static func inMemory(_ token: AuthToken? = nil) -> TokenStore {
    let memory = InMemoryTokenStore(token)
    return TokenStore(
      load: { await memory.load() },
      save: { await memory.save($0) },
      clear: { await memory.clear() })
  }
}

/// The credentials behind ``TokenStore/inMemory(_:)``.
actor InMemoryTokenStore {
  private var token: AuthToken?

  init(_ token: AuthToken?) {
    self.token = token
  }

  func load() -> AuthToken? { token }
  func save(_ token: AuthToken) { self.token = token }
  func clear() { token = nil }
}
