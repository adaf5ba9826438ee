import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct AdminTests {
  @Test func statsCountRoutePatterns() async throws {
    try await TestSupport.withRouter { client in
      _ = try await client.send("/products/1")
      _ = try await client.send("/products/2")
      _ = try await client.send("/products/999")
      _ = try await client.send("/products")
      _ = try await client.send("/status/503", method: .post)
      _ = try await client.send("/nope")
      let response = try await client.send("/admin/stats")
      #expect(response.status == .ok)
      let stats = try response.decode(Stats.self)
      #expect(stats.refreshCalls == 0)
      #expect(
        stats.requests == ["GET /products/{id}": 3, "GET /products": 1, "POST /status/{code}": 1]
      )
    }
  }

  @Test func resetRestoresSeedState() async throws {
    try await TestSupport.withRouter { client in
      let pair = try await client.loginDemoUser()
      _ = try await client.sendJSON("/signup", #"{"email":"x@y.z","password":"12345678","name":"X"}"#)
      _ = try await client.send("/posts/1", method: .delete)
      _ = try await client.sendJSON("/posts", #"{"title":"t","body":"b"}"#)
      _ = try await client.sendJSON("/admin/refresh-failure", #"{"enabled":true}"#)
      _ = try await client.sendJSON("/auth/refresh", #"{"refreshToken":"\#(pair.refreshToken)"}"#)

      let reset = try await client.send("/admin/reset", method: .post)
      #expect(reset.status == .ok)

      #expect(try await client.send("/admin/stats").decode(Stats.self) == Stats(refreshCalls: 0, requests: [:]))
      #expect(try await client.send("/users/me", headers: TestSupport.bearer(pair.accessToken)).status == .unauthorized)
      #expect(try await client.send("/posts/1").status == .ok)
      #expect(try await client.send("/posts/11").status == .notFound)
      let login = try await client.sendJSON("/auth/login", #"{"email":"x@y.z","password":"12345678"}"#)
      #expect(login.status == .unauthorized)
      // Refresh failures are off again, but the old refresh token was dropped.
      let refresh = try await client.sendJSON("/auth/refresh", #"{"refreshToken":"\#(pair.refreshToken)"}"#)
      #expect(try refresh.errorBody().code == "invalid_refresh_token")
      let created = try await client.sendJSON("/posts", #"{"title":"t","body":"b"}"#)
      #expect(created.headers[.location] == "/posts/11")
    }
  }

  @Test func expireTokensReportsCount() async throws {
    try await TestSupport.withRouter { client in
      _ = try await client.loginDemoUser()
      _ = try await client.loginDemoUser()
      let response = try await client.send("/admin/expire-tokens", method: .post)
      #expect(response.text == #"{"expiredTokens":2}"#)
    }
  }

  @Test func serversDoNotShareState() async throws {
    let token = try await TestSupport.withRouter { client in
      try await client.loginDemoUser().accessToken
    }
    try await TestSupport.withRouter { client throws in
      #expect(try await client.send("/users/me", headers: TestSupport.bearer(token)).status == .unauthorized)
    }
  }
}
