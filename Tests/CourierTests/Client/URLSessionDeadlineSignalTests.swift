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
@Suite(.serialized, .timeLimit(.minutes(1))) struct URLSessionDeadlineSignalTests {
  /// A server that answers `/start` with a redirect to `/next`, `/busy` with a 503 asking to retry in 30 s, and never
  /// answers anything else.
  private static func server(busyAnswers: Locked<Int> = Locked(0)) async throws -> ScriptedServer {
    try await ScriptedServer.start { connection in
      while let request = try await connection.readRequest() {
        if request.target == "/busy" {
          busyAnswers.withLock { $0 += 1 }
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

  /// Sends `endpoint` and expects it to time out after `timeout` seconds.
  private static func expectTimeout(
    _ client: APIClient, _ endpoint: Endpoint<Data>, timeout: TimeInterval
  ) async throws {
    let stopwatch = Stopwatch()
    let error = await #expect(throws: CourierError.self) { try await client.send(endpoint.timeout(timeout)) }
    let elapsed = stopwatch.elapsed
    #expect(error?.kind == .timeout, "\(String(describing: error))")
    // Room for a loaded machine; the server never answers, so a deadline not kept would hang to the time limit.
    #expect(elapsed >= timeout - 0.01 && elapsed < timeout + 15, "the \(timeout) s deadline passed after \(elapsed) s")
    #expect(!Task.isCancelled)
  }

  @Test func aSessionOfYourOwnIsCancelledOnItsCompletionHandlerPath() async throws {
    let server = try await Self.server()
    defer { Task { await server.stop() } }
    let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
    defer { session.invalidateAndCancel() }
    let client = APIClient(
      configuration: .init(baseURL: server.baseURL, transport: URLSessionTransport(session: session)))
    try await Self.expectTimeout(client, .get("/silent"), timeout: 0.5)
  }

  @Test func aPostWithItsBodyInMemoryIsCancelled() async throws {
    let server = try await Self.server()
    defer { Task { await server.stop() } }
    let client = APIClient(configuration: .init(baseURL: server.baseURL, transport: URLSessionTransport()))
    try await Self.expectTimeout(client, .post("/silent", body: ["name": "lamp"]), timeout: 0.5)
  }

  @Test func aDeadlineThatPassesWhileARetryWaitsEndsTheWait() async throws {
    let busyAnswers = Locked(0)
    let server = try await Self.server(busyAnswers: busyAnswers)
    defer { Task { await server.stop() } }
    let retrying = Locked(0)
    var configuration = APIClient.Configuration(baseURL: server.baseURL, transport: URLSessionTransport())
    configuration.interceptors = [RetryInterceptor()]
    configuration.eventHandler = { event in
      if case .retrying(_, _, let delay, _) = event, delay == 30 { retrying.withLock { $0 += 1 } }
    }
    let client = APIClient(configuration: configuration)
    // Long enough for the 503 to arrive first on a loaded machine, far shorter than the 30 s the server asks for.
    try await Self.expectTimeout(client, .get("/busy"), timeout: 10)
    #expect(busyAnswers.withLock { $0 } == 1)
    #expect(retrying.withLock { $0 } == 1, "the server's 503 arrived and the retry waited its 30 s")
  }

  @Test func aDeadlineThatPassesOnARedirectHopCancelsThatHop() async throws {
    let server = try await Self.server()
    defer { Task { await server.stop() } }
    let client = APIClient(configuration: .init(baseURL: server.baseURL, transport: URLSessionTransport()))
    try await Self.expectTimeout(client, .get("/start"), timeout: 0.5)
  }
}
