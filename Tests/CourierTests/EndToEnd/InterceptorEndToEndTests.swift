import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite struct AuthEndToEndTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func twoHundredConcurrentRequestsWithAnExpiredTokenCauseOneRefresh(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { plain, server in
      let store = TokenStore.inMemory(try await plain.login())
      try await plain.send(Endpoint<EmptyBody>.post("/admin/expire-tokens"))
      let client = server.client {
        $0.interceptors = [AuthInterceptor(store: store, refresh: demoRefresh(server))]
      }
      let names = try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<200 { group.addTask { try await client.value(Endpoint<DemoUser>.get("/users/me")).name } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(names.count == 200)
      #expect(Set(names) == ["Demo User"])
      let stats = try await plain.stats()
      #expect(stats.refreshCalls == 1)
      #expect(stats.requests["GET /users/me"].map { (200...400).contains($0) } == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func failingRefreshFailsAllTwoHundredTypedWithOneRefresh(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { plain, server in
      let store = TokenStore.inMemory(try await plain.login())
      try await plain.send(Endpoint<EmptyBody>.post("/admin/expire-tokens"))
      try await plain.send(Endpoint<EmptyBody>.post("/admin/refresh-failure", body: ["enabled": true]))
      let signOuts = Locked(0)
      let client = server.client {
        $0.interceptors = [
          AuthInterceptor(store: store, refresh: demoRefresh(server)) { _ in signOuts.withLock { $0 += 1 } }
        ]
      }
      let kinds = await withTaskGroup(of: CourierError.Kind?.self) { group in
        for _ in 0..<200 {
          group.addTask {
            do {
              _ = try await client.send(Endpoint<DemoUser>.get("/users/me"))
              return nil
            } catch { return (error as? CourierError)?.kind }
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
      #expect(kinds.count == 200)
      #expect(kinds.allSatisfy { $0 == .unauthorized })
      let stats = try await plain.stats()
      #expect(stats.refreshCalls == 1)
      #expect(signOuts.withLock { $0 } == 1)
      #expect(try await store.load() == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func a401AfterAFreshRefreshIsNotRefreshedAgain(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { plain, server in
      let refreshes = Locked(0)
      let auth = AuthInterceptor(store: .inMemory(AuthToken(accessToken: "stale"))) { _ in
        refreshes.withLock { $0 += 1 }
        return AuthToken(accessToken: "also-rejected")
      }
      let client = server.client {
        $0.interceptors = [auth]
        $0.serverErrorType = DemoError.self
      }
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<DemoUser>.get("/users/me"))
      }
      #expect(error?.status == .unauthorized)
      #expect(error?.isUnauthorized == true)
      #expect(refreshes.withLock { $0 } == 1)
      let stats = try await plain.stats()
      #expect(stats.requests["GET /users/me"] == 2)
    }
  }
}

@Suite struct RetryEndToEndTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  func client(_ server: DemoServerFixture, _ clock: TestCallClock, attempts: Int = 4) -> APIClient {
    server.client {
      $0.interceptors = [RetryInterceptor(maxAttempts: attempts, clock: clock, random: { 1 })]
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func a503WithRetryAfterIsRetriedUntilItSucceeds(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { plain, server in
      let clock = TestCallClock()
      let result = try await client(server, clock).value(
        Endpoint<Attempts>.get("/flaky/ra").query(["failures": 3, "retryAfter": 2]))
      #expect(result.attempts == 4)
      #expect(clock.sleeps == [2, 2, 2])
      #expect(try await plain.value(Endpoint<Attempts>.get("/flaky/ra/attempts")).attempts == 4)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func retryAfterAsAnHTTPDateIsHonoured(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { _, server in
      let clock = TestCallClock()
      let dates = DateOnlyClock(clock: clock)
      let real = server.client {
        $0.interceptors = [RetryInterceptor(maxAttempts: 2, clock: dates)]
      }
      let before = Date()
      _ = try await real.value(Endpoint<Attempts>.get("/flaky/date").query(["failures": 1, "retryAfterDate": 30]))
      let waited = try #require(clock.sleeps.first)
      let asked = try #require(dates.asked.first)
      // The server wrote its time plus 30 s, rounded up to the whole second the date format keeps, after `before`;
      // the retry read the time before it asked to sleep. So the wait is under 31 s, and falls short of 30 s by at
      // most the time the call took until then — however long a busy machine made that.
      let stall = asked.timeIntervalSince(before)
      #expect(waited < 31 && waited >= 30 - stall, "waited \(waited) s, \(stall) s after the call began")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func droppedConnectionsAreRetriedAndCounted(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { plain, server in
      let clock = TestCallClock()
      let result = try await client(server, clock).value(
        Endpoint<Attempts>.get("/flaky/reset").query(["failures": 2, "mode": "reset"]))
      #expect(result.attempts == 3)
      #expect(clock.sleeps == [0.5, 1])
      #expect(try await plain.value(Endpoint<Attempts>.get("/flaky/reset/attempts")).attempts == 3)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aPOSTWithoutIdempotencyKeyIsAttemptedOnce(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { plain, server in
      let client = client(server, TestCallClock())
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<Attempts>.post("/flaky/post", body: ["a": 1]).query(["failures": 2]))
      }
      #expect(error?.status == .serviceUnavailable)
      #expect(try await plain.value(Endpoint<Attempts>.get("/flaky/post/attempts")).attempts == 1)
      let keyed = try await client.value(
        Endpoint<Attempts>.post("/flaky/keyed", body: ["a": 1]).query(["failures": 2]).idempotencyKey())
      #expect(keyed.attempts == 3)
    }
  }
}

/// The real time for `Retry-After` dates, with recorded, instant sleeps.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DateOnlyClock: CallClock {
  let clock: TestCallClock
  /// The wall clock's time of each sleep asked for.
  private let sleptAt = Locked<[Date]>([])
  var now: Date { Date() }
  var asked: [Date] { sleptAt.withLock { $0 } }

  init(clock: TestCallClock) {
    self.clock = clock
  }

  func sleep(seconds: TimeInterval) async throws {
    sleptAt.withLock { $0.append(Date()) }
    try await clock.sleep(seconds: seconds)
  }
}

@Suite(.hangGuard) struct LimitsEndToEndTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func twoHundredRequestsWithLimitEightNeverExceedEight(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { plain, server in
      // The calls' deadlines count their wait for a slot; on a clock that stands still they never end a call that a
      // busy machine keeps waiting.
      let client = server.client {
        $0.interceptors = [ConcurrencyLimitInterceptor(maxConcurrent: 8)]
        $0.clock = TestCallClock(advancesOnSleep: false)
      }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<200 {
          group.addTask { try await client.send(Endpoint<EmptyBody>.get("/concurrency/probe").query(["ms": 5])) }
        }
        try await group.waitForAll()
      }
      let stats = try await plain.stats()
      #expect(
        stats.maxInFlight.map { (1...8).contains($0) } == true, "max in flight \(String(describing: stats.maxInFlight))"
      )
      #expect(stats.requests["GET /concurrency/probe"] == 200)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func fiftyIdenticalGETsWithDeduplicationReachTheServerOnce(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { plain, server in
      let arrivals = ArrivalGate(expecting: 50)
      let client = server.client { $0.interceptors = [arrivals.counter, DeduplicationInterceptor(), arrivals.gate] }
      let hits = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<50 {
          group.addTask {
            try await client.value(Endpoint<Hits>.get("/counted/d").query(["ms": 300]).deduplicated()).hits
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(hits == Array(repeating: 1, count: 50))
      #expect(try await plain.value(Endpoint<Hits>.get("/counted/d/hits")).hits == 1)
    }
  }
}
