import Courier
import CourierStyles
import Foundation
import HTTPTypes
import Logging

/// The tour's interceptor steps: shared token refresh, retries, redacted logs.
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runInterceptorSteps() async throws {
    step("200 concurrent requests with an expired token share one refresh")
    let tokens = try await client.value(
      Endpoint<Tokens>.post("/auth/login", body: Credentials(email: "demo@courier.dev", password: "secret123")))
    let store = TokenStore.inMemory(AuthToken(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken))
    try await client.send(Endpoint<EmptyBody>.post("/admin/expire-tokens"))
    let before = try await client.value(Endpoint<DemoStats>.get("/admin/stats")).refreshCalls
    let refresher = APIClient(baseURL: baseURL) { $0.transport = transport }
    let auth = AuthInterceptor(store: store) { old in
      let fresh = try await refresher.value(
        Endpoint<Tokens>.post("/auth/refresh", body: ["refreshToken": old.refreshToken ?? ""]).asTokenRefresh())
      return AuthToken(accessToken: fresh.accessToken, refreshToken: fresh.refreshToken)
    }
    let authed = APIClient(baseURL: baseURL) {
      $0.transport = transport
      $0.interceptors = [auth, ConcurrencyLimitInterceptor(maxConcurrent: 16)]
    }
    let succeeded = try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<200 { group.addTask { try await authed.send(Endpoint<User>.get("/users/me")).status == .ok } }
      return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    let refreshes = try await client.value(Endpoint<DemoStats>.get("/admin/stats")).refreshCalls - before
    print("  \(succeeded) requests, \(refreshes) refresh")

    step("A 503 with Retry-After, retried (events printed by an observer)")
    let retrying = APIClient(baseURL: baseURL) {
      $0.transport = transport
      $0.interceptors = [RetryInterceptor()]
      $0.eventHandler = { event in
        switch event {
        case .retrying(_, let attempt, let delay, let reason):
          print("  event: retrying (\(reason)), attempt \(attempt) after \(delay) s")
        case .finished(_, let duration, let attempts, _, _, _, _):
          print("  event: finished in \(Int(duration * 1000)) ms after \(attempts) attempts")
        default: break
        }
      }
    }
    let flaky = try await retrying.value(
      Endpoint<FlakyAttempts>.get("/flaky/tour").query(["failures": 2, "retryAfter": 1]))
    print("  the server counted \(flaky.attempts) attempts; the last one succeeded")

    step("Logs with secrets redacted")
    let lines = LogLines()
    let logger = Logger(label: "courier.tour") { _ in lines.handler }
    let logged = APIClient(baseURL: baseURL) {
      $0.transport = transport
      $0.interceptors = [LoggingInterceptor(logger: logger)]
    }
    _ = try await logged.value(
      Endpoint<Tokens>.post("/auth/login", body: Credentials(email: "demo@courier.dev", password: "secret123"))
        .query(["api_key": "k-123"]).header(.authorization(bearer: "hunter2")))
    for line in lines.all { print("  \(line)") }
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct DemoStats: Decodable, Sendable {
  var refreshCalls: Int
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct FlakyAttempts: Decodable, Sendable {
  var attempts: Int
}

/// Collects log lines so the tour can print an excerpt.
@available(macOS 14, iOS 17, tvOS 17, *)
final class LogLines: Sendable {
  private let lines = LockedLines()

  var handler: some LogHandler { CollectingHandler(lines: lines) }
  var all: [String] { lines.all }
}

@available(macOS 14, iOS 17, tvOS 17, *)
final class LockedLines: Sendable {
  private let storage = Locked<[String]>([])

  func append(_ line: String) { storage.withLock { $0.append(line) } }
  var all: [String] { storage.withLock { $0 } }
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct CollectingHandler: LogHandler {
  let lines: LockedLines
  var logLevel: Logger.Level = .debug
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    lines.append("[\(event.level)] \(event.message)")
  }
}
