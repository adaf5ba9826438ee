import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct AuthTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func loginWithJSON() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.sendJSON(
        "/auth/login",
        #"{"email":"demo@courier.dev","password":"secret123"}"#
      )
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/json; charset=utf-8")
      let pair = try response.decode(TokenPair.self)
      #expect(pair.tokenType == "Bearer")
      #expect(pair.expiresIn == 3600)
      #expect(!pair.accessToken.isEmpty)
      #expect(!pair.refreshToken.isEmpty)
      #expect(pair.accessToken != pair.refreshToken)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func loginWithForm() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send(
        "/auth/login",
        method: .post,
        headers: [.contentType: "application/x-www-form-urlencoded"],
        body: "email=demo%40courier.dev&password=secret123"
      )
      #expect(response.status == .ok)
      #expect(try response.decode(TokenPair.self).tokenType == "Bearer")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func loginWithBasicAuthorization() async throws {
    try await TestSupport.withRouter { client in
      let credentials = Data("demo@courier.dev:secret123".utf8).base64EncodedString()
      let response = try await client.send(
        "/auth/login",
        method: .post,
        headers: [.authorization: "Basic \(credentials)"]
      )
      #expect(response.status == .ok)
      #expect(try response.decode(TokenPair.self).tokenType == "Bearer")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    #"{"email":"demo@courier.dev","password":"wrong-password"}"#,
    #"{"email":"nobody@courier.dev","password":"secret123"}"#,
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func wrongCredentialsAre401(body: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.sendJSON("/auth/login", body)
      #expect(response.status == .unauthorized)
      #expect(response.isJSON)
      #expect(try response.errorBody().code == "invalid_credentials")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func wrongBasicPasswordIs401() async throws {
    try await TestSupport.withRouter { client in
      let credentials = Data("demo@courier.dev:nope".utf8).base64EncodedString()
      let headers: HTTPFields = [.authorization: "Basic \(credentials)"]
      let response = try await client.send("/auth/login", method: .post, headers: headers)
      #expect(response.status == .unauthorized)
      #expect(try response.errorBody().code == "invalid_credentials")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    (#"{"email": "demo@courier.dev", "password": "#, "invalid_json"),
    ("not json at all", "invalid_json"),
    (#"{"email":"demo@courier.dev"}"#, "invalid_body"),
    (#"{"email":42,"password":"secret123"}"#, "invalid_body"),
    (#"["demo@courier.dev","secret123"]"#, "invalid_body"),
    ("", "invalid_body"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func malformedLoginBodyIs400(body: String, code: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.sendJSON("/auth/login", body)
      #expect(response.status == .badRequest)
      #expect(response.isJSON)
      let error = try response.errorBody()
      #expect(error.code == code)
      #expect(!error.error.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func malformedBasicHeaderIs400() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/auth/login", method: .post, headers: [.authorization: "Basic !!!"])
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().code == "invalid_authorization")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func refreshRotatesTokensAndIsCounted() async throws {
    try await TestSupport.withRouter { client in
      let first = try await client.loginDemoUser()
      let refreshed = try await client.sendJSON("/auth/refresh", #"{"refreshToken":"\#(first.refreshToken)"}"#)
      #expect(refreshed.status == .ok)
      let second = try refreshed.decode(TokenPair.self)
      #expect(second.accessToken != first.accessToken)
      #expect(second.refreshToken != first.refreshToken)

      // The old refresh token is spent; the old access token still works until it expires.
      let reused = try await client.sendJSON("/auth/refresh", #"{"refreshToken":"\#(first.refreshToken)"}"#)
      #expect(reused.status == .unauthorized)
      #expect(try reused.errorBody().code == "invalid_refresh_token")
      #expect(try await client.send("/users/me", headers: TestSupport.bearer(first.accessToken)).status == .ok)
      #expect(try await client.send("/users/me", headers: TestSupport.bearer(second.accessToken)).status == .ok)

      let stats = try await client.send("/admin/stats").decode(Stats.self)
      #expect(stats.refreshCalls == 2)
      #expect(stats.requests["POST /auth/refresh"] == 2)
      #expect(stats.requests["POST /auth/login"] == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func unknownRefreshTokenIs401() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.sendJSON("/auth/refresh", #"{"refreshToken":"rt_bogus"}"#)
      #expect(response.status == .unauthorized)
      #expect(try response.errorBody().code == "invalid_refresh_token")
      let malformed = try await client.sendJSON("/auth/refresh", #"{"token":"x"}"#)
      #expect(malformed.status == .badRequest)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func adminExpiresAccessTokens() async throws {
    try await TestSupport.withRouter { client in
      let pair = try await client.loginDemoUser()
      let expire = try await client.send("/admin/expire-tokens", method: .post)
      #expect(expire.status == .ok)
      let me = try await client.send("/users/me", headers: TestSupport.bearer(pair.accessToken))
      #expect(me.status == .unauthorized)
      #expect(me.headers[.wwwAuthenticate] == "Bearer")
      #expect(try me.errorBody().code == "token_expired")

      // Refreshing still works and yields a usable token.
      let refreshed = try await client.sendJSON("/auth/refresh", #"{"refreshToken":"\#(pair.refreshToken)"}"#)
      let fresh = try refreshed.decode(TokenPair.self)
      #expect(try await client.send("/users/me", headers: TestSupport.bearer(fresh.accessToken)).status == .ok)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func shortTTLTokensExpireByThemselves() async throws {
    try await TestSupport.withRouter(options: .init(accessTokenTTL: .milliseconds(100))) { client in
      let pair = try await client.loginDemoUser()
      #expect(pair.expiresIn == 1)
      try await Task.sleep(for: .milliseconds(150))
      let me = try await client.send("/users/me", headers: TestSupport.bearer(pair.accessToken))
      #expect(me.status == .unauthorized)
      #expect(try me.errorBody().code == "token_expired")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func refreshFailureSwitch() async throws {
    try await TestSupport.withRouter { client in
      let pair = try await client.loginDemoUser()
      let enable = try await client.sendJSON("/admin/refresh-failure", #"{"enabled":true}"#)
      #expect(enable.status == .ok)
      let failing = try await client.sendJSON("/auth/refresh", #"{"refreshToken":"\#(pair.refreshToken)"}"#)
      #expect(failing.status == .serviceUnavailable)
      #expect(try failing.errorBody().code == "refresh_unavailable")

      _ = try await client.sendJSON("/admin/refresh-failure", #"{"enabled":false}"#)
      // The failed attempt did not spend the refresh token.
      let working = try await client.sendJSON("/auth/refresh", #"{"refreshToken":"\#(pair.refreshToken)"}"#)
      #expect(working.status == .ok)
      #expect(try await client.send("/admin/stats").decode(Stats.self).refreshCalls == 2)

      let bad = try await client.sendJSON("/admin/refresh-failure", #"{"enabled":"yes"}"#)
      #expect(bad.status == .badRequest)
    }
  }
}
