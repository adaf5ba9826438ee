import HTTPTypes

extension AuthInterceptor {
  /// Creates the interceptor for credentials kept in `store` and renewed by `refresh`.
  ///
  /// `refresh` receives the current credentials, calls your refresh endpoint (marked
  /// ``Endpoint/asTokenRefresh()``) and returns new ones, which the interceptor saves in `store`. When it throws,
  /// `store` is cleared and `onUnauthorized` runs.
  ///
  /// ```swift
  /// let auth = AuthInterceptor(store: .inMemory(token)) { old in
  ///   let fresh = try await authClient.value(
  ///     Endpoint<TokenPair>.post("/auth/refresh", body: ["refreshToken": old.refreshToken ?? ""]).asTokenRefresh())
  ///   return AuthToken(accessToken: fresh.accessToken, refreshToken: fresh.refreshToken)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - store: Where the credentials live.
  ///   - refreshStatuses: The statuses that trigger a refresh.
  ///   - refresh: Gets new credentials for the current ones.
  ///   - onUnauthorized: Called once per failed refresh.
  public init(
    store: TokenStore,
    refreshStatuses: Set<HTTPResponse.Status> = [.unauthorized],
    refresh: @escaping @Sendable (AuthToken) async throws -> AuthToken,
    onUnauthorized: (@Sendable (CourierError) async -> Void)? = nil
  ) {
    self.init(
      provider: StoredTokenProvider(store: store, refresh: refresh), refreshStatuses: refreshStatuses,
      onUnauthorized: onUnauthorized)
  }
}
