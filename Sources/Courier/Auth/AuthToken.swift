import Foundation

/// Bearer credentials: an access token, the refresh token that renews it, and when it expires.
public struct AuthToken: Codable, Sendable, Hashable {
  /// The token sent as `Authorization: Bearer <accessToken>`.
  public var accessToken: String
  /// The token that gets a new access token, when the API issues one.
  public var refreshToken: String?
  /// When the access token expires, when known.
  public var expiresAt: Date?

  /// Creates credentials.
  public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
  }
}

extension AuthToken: CustomStringConvertible {
  /// Never shows the tokens themselves, so credentials do not end up in logs.
  public var description: String {
    "AuthToken(accessToken: <\(accessToken.count) chars>, refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"))"
  }
}
