import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A call over URLSession keeps its deadline with a signal that cancels its URLSession task, on every way the transport
/// sends a request: these are the ways the transport conformance cases (buffered GETs) do not take.
@Suite(.serialized, .hangGuard) struct URLSessionDeadlineTests {
  /// A server that answers `/start` with a redirect to `/next`, `/busy` with a 503 asking to retry in 30 s, and never
  /// answers anything else; `requests` counts the requests it read.
  private static func server(requests: Locked<[String]>) async throws -> ScriptedServer {
    try await ScriptedServer.start { connection in
      while let request = try await connection.readRequest() {
        requests.withLock { $0.append(request.target) }
        if request.target == "/busy" {
          try await connection.respond(503, reason: "Service Unavailable", headers: [("Retry-After", "30")])
          continue
        }
        guard request.target == "/start" else {
          await connection.hang()
          return
        }
        try await connection.respond(302, reason: "Found", headers: [("Location", "/next")])
      }
    }
  }

  /// Sends `endpoint` with a 60 s timeout on a clock of the test's, and expects it to end with a timeout when the
  /// clock reaches 60 s, once the server has read `last`. URLSession's own timeout is 61 s of real time, and the
  /// server never answers: only the deadline's signal can end the call within the 20 s the check waits.
  private static func expectTimeout(
    _ transport: URLSessionTransport, _ endpoint: Endpoint<Data>, after last: String,
    interceptors: [any Interceptor] = [], waitingFor ready: @escaping @Sendable () -> Bool = { true },
    events: (@Sendable (CourierEvent) -> Void)? = nil
  ) async throws {
    let requests = Locked<[String]>([])
    let server = try await Self.server(requests: requests)
    defer { Task { await server.stop() } }
    let clock = TestCallClock(advancesOnSleep: false)
    var configuration = APIClient.Configuration(baseURL: server.baseURL, transport: transport)
    configuration.clock = clock
    configuration.interceptors = interceptors
    configuration.eventHandler = events
    let client = APIClient(configuration: configuration)
    try await CourierTestSupport.expectTimeout(
      on: clock, at: 60, once: { requests.withLock { $0.last == last } && ready() }
    ) {
      try await client.send(endpoint.timeout(60))
    }
    #expect(!Task.isCancelled)
  }

  @Test func aSessionOfYourOwnIsCancelledOnItsCompletionHandlerPath() async throws {
    let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
    defer { session.invalidateAndCancel() }
    try await Self.expectTimeout(URLSessionTransport(session: session), .get("/silent"), after: "/silent")
  }

  @Test func aPostWithItsBodyInMemoryIsCancelled() async throws {
    try await Self.expectTimeout(URLSessionTransport(), .post("/silent", body: ["name": "lamp"]), after: "/silent")
  }

  @Test func aDeadlineThatPassesWhileARetryWaitsEndsTheWait() async throws {
    let retrying = Locked(0)
    // The retry waits on the system clock: the 30 s the server asks for are real; the deadline ends the wait.
    try await Self.expectTimeout(
      URLSessionTransport(), .get("/busy"), after: "/busy", interceptors: [RetryInterceptor()],
      waitingFor: { retrying.withLock { $0 } == 1 }
    ) { event in
      if case .retrying(_, _, let delay, _) = event, delay == 30 { retrying.withLock { $0 += 1 } }
    }
    #expect(retrying.withLock { $0 } == 1, "the server's 503 arrived and the retry waited its 30 s")
  }

  @Test func aDeadlineThatPassesOnARedirectHopCancelsThatHop() async throws {
    try await Self.expectTimeout(URLSessionTransport(), .get("/start"), after: "/next")
  }
}
