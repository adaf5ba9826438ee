import Foundation
import HTTPTypes
import Logging

extension LoggingInterceptor {
  /// What the ``LoggingInterceptor`` logs, at which levels, and what it hides.
  ///
  /// Every property has a default, so change only what you need:
  ///
  /// ```swift
  /// var configuration = LoggingInterceptor.Configuration()
  /// configuration.requestLevel = .debug
  /// configuration.curlLevel = nil  // never log cURL commands
  /// configuration.redactedHeaders.insert(HTTPField.Name("X-Session")!)
  /// configuration.redactedBodyFields.formUnion(["ssn", "cardNumber"])
  /// let logging = LoggingInterceptor(logger: logger, configuration: configuration)
  /// ```
  ///
  /// Redaction replaces a value with ``placeholder`` and keeps the name, so a log still shows that a token was sent
  /// without showing the token. For `Authorization` and `Proxy-Authorization` the scheme stays visible
  /// (`Bearer <redacted>`).
  public struct Configuration: Sendable {
    /// The level of the `→ GET https://…` line that starts each attempt; `.info` by default.
    public var requestLevel: Logger.Level
    /// The level of the `← 200 OK …` line that ends each attempt; `.info` by default.
    public var responseLevel: Logger.Level
    /// The level of the header and body lines; `.debug` by default.
    public var bodyLevel: Logger.Level
    /// The level of the cURL command that reproduces the request; `.debug` by default, `nil` to never log it.
    public var curlLevel: Logger.Level?
    /// The level of the `✕ … failed` line for an attempt that threw; `.error` by default.
    public var errorLevel: Logger.Level
    /// The most bytes of a body that are logged (2 048 by default); the rest is cut with a note
    /// `… (N more bytes)`.
    public var maxBodyBytes: Int
    /// Headers whose values are never logged; the names are compared case-insensitively.
    public var redactedHeaders: Set<HTTPField.Name>
    /// Query parameters whose values are never logged, compared case-insensitively. A key also matches when it
    /// names the field inside brackets, so `password` hides `user[password]=…`.
    public var redactedQueryKeys: Set<String>
    /// JSON fields (at any depth, in objects and arrays) and form fields whose values are never logged, compared
    /// case-insensitively.
    public var redactedBodyFields: Set<String>
    /// What a hidden value is replaced with; `"<redacted>"` by default.
    public var placeholder: String

    /// The headers hidden by default: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and
    /// `X-API-Key`.
    public static let defaultRedactedHeaders: Set<HTTPField.Name> = [
      .authorization, .proxyAuthorization, .cookie, .setCookie, HTTPField.Name("X-API-Key")!,
    ]

    /// The query keys and body fields hidden by default: `password`, `token`, `access_token`, `accessToken`,
    /// `refresh_token`, `refreshToken`, `api_key`, `apiKey`, `secret`, `client_secret` and `authorization`.
    ///
    /// Extend rather than replace them: `configuration.redactedBodyFields = Configuration.defaultRedactedKeys
    /// .union(["pin"])`.
    public static let defaultRedactedKeys: Set<String> = [
      "password", "token", "access_token", "accessToken", "refresh_token", "refreshToken", "api_key", "apiKey",
      "secret", "client_secret", "authorization",
    ]

    /// Creates a configuration; every argument has the default described on its property.
    public init(
      requestLevel: Logger.Level = .info,
      responseLevel: Logger.Level = .info,
      bodyLevel: Logger.Level = .debug,
      curlLevel: Logger.Level? = .debug,
      errorLevel: Logger.Level = .error,
      maxBodyBytes: Int = 2_048,
      redactedHeaders: Set<HTTPField.Name> = Configuration.defaultRedactedHeaders,
      redactedQueryKeys: Set<String> = Configuration.defaultRedactedKeys,
      redactedBodyFields: Set<String> = Configuration.defaultRedactedKeys,
      placeholder: String = "<redacted>"
    ) {
      self.requestLevel = requestLevel
      self.responseLevel = responseLevel
      self.bodyLevel = bodyLevel
      self.curlLevel = curlLevel
      self.errorLevel = errorLevel
      self.maxBodyBytes = maxBodyBytes
      self.redactedHeaders = redactedHeaders
      self.redactedQueryKeys = redactedQueryKeys
      self.redactedBodyFields = redactedBodyFields
      self.placeholder = placeholder
    }
  }
}
