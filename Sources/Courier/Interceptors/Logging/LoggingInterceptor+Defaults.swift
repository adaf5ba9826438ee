import HTTPTypes

extension LoggingInterceptor {
  /// The headers hidden by default: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and
  /// `X-API-Key`.
  public static let defaultRedactedHeaders: Set<HTTPField.Name> = [
    .authorization, .proxyAuthorization, .cookie, .setCookie, HTTPField.Name("X-API-Key")!,
  ]

  /// The query keys and body fields hidden by default: `password`, `token`, `access_token`, `accessToken`,
  /// `refresh_token`, `refreshToken`, `api_key`, `apiKey`, `secret`, `client_secret` and `authorization`.
  ///
  /// Extend rather than replace them:
  ///
  /// ```swift
  /// let logging = LoggingInterceptor(logger: logger) {
  ///   $0.redactedBodyFields = LoggingInterceptor.defaultRedactedKeys.union(["pin"])
  /// }
  /// ```
  public static let defaultRedactedKeys: Set<String> = [
    "password", "token", "access_token", "accessToken", "refresh_token", "refreshToken", "api_key", "apiKey",
    "secret", "client_secret", "authorization",
  ]
}
