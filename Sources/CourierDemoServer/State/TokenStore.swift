#if canImport(Hummingbird)
import Foundation

/// Issued access and refresh tokens, kept by ``DemoState``.
@available(macOS 14, iOS 17, tvOS 17, *)
struct TokenStore: Sendable {
  /// What an access token grants and until when.
  struct AccessGrant: Sendable {
    /// The user the token belongs to.
    var userID: Int
    /// When the token stops being valid.
    var expiresAt: ContinuousClock.Instant
  }

  /// The outcome of looking up a bearer token.
  enum Lookup: Sendable, Equatable {
    case valid(userID: Int)
    case expired
    case unknown
  }

  private var accessTokens: [String: AccessGrant] = [:]
  private var refreshTokens: [String: Int] = [:]

  /// Issues a new access/refresh token pair for `userID`.
  mutating func issue(userID: Int, ttl: Duration, now: ContinuousClock.Instant) -> TokenPair {
    let access = Self.randomToken(prefix: "at_")
    let refresh = Self.randomToken(prefix: "rt_")
    accessTokens[access] = AccessGrant(userID: userID, expiresAt: now.advanced(by: ttl))
    refreshTokens[refresh] = userID
    return TokenPair(accessToken: access, refreshToken: refresh, expiresIn: Self.seconds(ttl))
  }

  /// Looks up a bearer token.
  func lookup(accessToken: String, now: ContinuousClock.Instant) -> Lookup {
    guard let grant = accessTokens[accessToken] else { return .unknown }
    return now < grant.expiresAt ? .valid(userID: grant.userID) : .expired
  }

  /// Removes and returns the owner of a refresh token (refresh tokens are single-use).
  mutating func redeem(refreshToken: String) -> Int? {
    refreshTokens.removeValue(forKey: refreshToken)
  }

  /// Makes every access token issued so far expired; returns how many were still valid.
  mutating func expireAll(now: ContinuousClock.Instant) -> Int {
    var count = 0
    for (token, grant) in accessTokens where grant.expiresAt > now {
      accessTokens[token]?.expiresAt = now
      count += 1
    }
    return count
  }

  /// Whole seconds in `duration`, rounded up, never negative.
  static func seconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return 0 }
    return Int(seconds) + (attoseconds > 0 ? 1 : 0)
  }

  /// 32 random bytes as URL-safe Base64 without padding, after `prefix`.
  static func randomToken(prefix: String) -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    let base64 = Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    return prefix + base64
  }
}
#endif
