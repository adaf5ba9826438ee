import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct AdminTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
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

  @available(macOS 14, iOS 17, tvOS 17, *)
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

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func statsReportProbes() async throws {
    try await TestSupport.withRouter { client in
      _ = try await client.send("/flaky/a?failures=1")
      _ = try await client.send("/flaky/a?failures=1")
      _ = try await client.send("/flaky/b", method: .post)
      _ = try await client.send("/flaky/a/attempts")
      _ = try await client.send("/flaky/bad?failures=99")
      _ = try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<3 {
          group.addTask { _ = try await client.send("/concurrency/probe?ms=300") }
        }
        try await group.waitForAll()
      }
      _ = try await client.send("/counted/c")
      _ = try await client.send("/counted/c/hits")
      let stats = try await client.send("/admin/stats").decode(Stats.self)
      #expect(stats.flaky == ["a": 2, "b": 1])
      #expect((2...3).contains(stats.maxInFlight))
      #expect(stats.refreshCalls == 0)
      // Read-outs are not counted; rejected requests are, like everywhere else.
      #expect(
        stats.requests == [
          "GET /flaky/{key}": 3, "POST /flaky/{key}": 1, "GET /concurrency/probe": 3, "GET /counted/{key}": 1,
        ]
      )
      let text = try await client.send("/admin/stats").text
      #expect(text.contains(#""flaky":{"a":2,"b":1}"#))
      #expect(text.contains(#""maxInFlight":\#(stats.maxInFlight)"#))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func resetClearsProbes() async throws {
    try await TestSupport.withRouter { client throws in
      _ = try await client.send("/flaky/a")
      _ = try await client.send("/concurrency/probe?ms=0")
      _ = try await client.send("/counted/c")
      #expect(try await client.send("/admin/reset", method: .post).status == .ok)
      #expect(try await client.send("/admin/stats").decode(Stats.self) == Stats(refreshCalls: 0, requests: [:]))
      #expect(try await client.send("/admin/stats").text.contains(#""flaky":{},"maxInFlight":0"#))
      #expect(try await client.send("/flaky/a/attempts").decode(FlakyAttempts.self).attempts == 0)
      #expect(try await client.send("/counted/c/hits").decode(CountedHits.self).hits == 0)
      // Failures start over for the key.
      #expect(try await client.send("/flaky/a?failures=1").status == .serviceUnavailable)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func resetKeepsProbesInFlightCounted() async throws {
    // The slow probe lasts the route's longest, 2 s. An attempt counts only when the second probe was answered within
    // 2 s of sending the first, so the first was certainly still in flight; a machine stalled longer tries again.
    for _ in 1...5 {
      let conclusive = try await TestSupport.withRouter { client in
        let start = ContinuousClock.now
        async let slowProbe = client.send("/concurrency/probe?ms=\(ConcurrencyRoutes.maxMilliseconds)")
        // Waits until the slow probe is in flight, rather than for a time that a loaded machine may outlast.
        while try await !client.send("/admin/stats").text.contains(#""maxInFlight":1"#),
          ContinuousClock.now - start < .seconds(20)
        {
          try await Task.sleep(for: .milliseconds(10))
        }
        _ = try await client.send("/admin/reset", method: .post)
        let second = try await client.send("/concurrency/probe?ms=0").decode(ProbeReport.self)
        let answered = ContinuousClock.now
        let slow = try await slowProbe.decode(ProbeReport.self)
        guard answered - start < .milliseconds(ConcurrencyRoutes.maxMilliseconds) || second.inFlight == 2 else {
          return false
        }
        // The probe still in flight counts: the maximum restarts from 1, and a new probe sees 2.
        #expect(second == ProbeReport(inFlight: 2, maxInFlight: 2))
        #expect(slow == ProbeReport(inFlight: 1, maxInFlight: 2))
        #expect(try await client.send("/concurrency/probe?ms=0").decode(ProbeReport.self).inFlight == 1)
        return true
      }
      if conclusive { return }
    }
    Issue.record("in five attempts the slow probe had ended before the second was answered")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func expireTokensReportsCount() async throws {
    try await TestSupport.withRouter { client in
      _ = try await client.loginDemoUser()
      _ = try await client.loginDemoUser()
      let response = try await client.send("/admin/expire-tokens", method: .post)
      #expect(response.text == #"{"expiredTokens":2}"#)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func serversDoNotShareState() async throws {
    let token = try await TestSupport.withRouter { client in
      try await client.loginDemoUser().accessToken
    }
    try await TestSupport.withRouter { client throws in
      #expect(try await client.send("/users/me", headers: TestSupport.bearer(token)).status == .unauthorized)
    }
  }
}
