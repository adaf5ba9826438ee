import Courier
import Foundation

/// What `/download/sha256/{bytes}` reports: the SHA-256 of the body `/download/{bytes}` sends.
@available(macOS 14, iOS 17, tvOS 17, *)
package struct DownloadDigest: Decodable, Sendable {
  package var sha256: String
}

/// What `/admin/stats` reports.
@available(macOS 14, iOS 17, tvOS 17, *)
package struct DemoStats: Decodable, Sendable {
  package var refreshCalls: Int
  package var requests: [String: Int]
  package var maxInFlight: Int?
  package var flaky: [String: Int]?
}

/// What `/flaky/{key}` reports.
@available(macOS 14, iOS 17, tvOS 17, *)
package struct Attempts: Decodable, Sendable {
  package var key: String
  package var attempts: Int
}

/// What `/cache/hits/{key}` reports.
@available(macOS 14, iOS 17, tvOS 17, *)
package struct Hits: Decodable, Sendable {
  package var key: String
  package var hits: Int
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension APIClient {
  /// The SHA-256, in hex, of the body `/download/{bytes}` sends.
  package func downloadDigest(of bytes: Int) async throws -> String {
    try await value(Endpoint<DownloadDigest>.get("/download/sha256/\(bytes)")).sha256
  }

  /// The demo server's counters.
  package func stats() async throws -> DemoStats {
    try await value(Endpoint<DemoStats>.get("/admin/stats").withoutAuthentication())
  }

  /// Logs in as the demo user.
  package func login() async throws -> AuthToken {
    let tokens = try await value(Endpoint<Tokens>.post("/auth/login", body: Credentials()).withoutAuthentication())
    return AuthToken(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
  }
}

/// A refresh call against the demo API's `/auth/refresh`, over the test's transport.
@available(macOS 14, iOS 17, tvOS 17, *)
package func demoRefresh(_ server: DemoServerFixture) -> @Sendable (AuthToken) async throws -> AuthToken {
  let refresher = server.client()
  return { old in
    let tokens = try await refresher.value(
      Endpoint<Tokens>.post("/auth/refresh", body: ["refreshToken": old.refreshToken ?? ""]).asTokenRefresh())
    return AuthToken(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
  }
}
