import CourierTestSupport
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Courier

/// A transport that honours a call's deadline signal: it records the task each request runs in and whether it got a
/// signal, and never answers `/hang` until the signal fires.
private final class SignalledTransport: HTTPTransport, DeadlineSignalling, Sendable {
  struct Seen: Equatable {
    var task: Int?
    var signalled: Bool
  }

  let seen = Locked<[Seen]>([])

  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    let task = withUnsafeCurrentTask { $0?.hashValue }
    seen.withLock { $0.append(Seen(task: task, signalled: options.deadlineSignal != nil)) }
    if request.path == "/hang" {
      guard let signal = options.deadlineSignal else { throw CourierError(.transport, "no signal to wait for") }
      try await withCheckedThrowingContinuation { (waiting: CheckedContinuation<Void, any Error>) in
        signal.onFire { waiting.resume(throwing: CourierError(.cancelled, "stopped by the call's deadline")) }
      }
    }
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    return (response, BodyStream(Data(#"{"name":"lamp"}"#.utf8)))
  }
}

/// Passes every request on.
private struct PassingInterceptor: Interceptor {
  func intercept(
    _ request: HTTPRequest, body: BodyStream?, context: CallContext, next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    try await next(request, body, context)
  }
}

private struct Item: Decodable, Equatable {
  let name: String
}

@Suite(.timeLimit(.minutes(1))) struct DeadlineSignalTests {
  private func client(
    _ transport: SignalledTransport, _ configure: (inout APIClient.Configuration) -> Void = { _ in }
  ) -> APIClient {
    var configuration = APIClient.Configuration(baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport)
    configure(&configuration)
    return APIClient(configuration: configuration)
  }

  @Test func aCallWithNothingInItsWayRunsInTheCallersTaskWithItsDeadlineAsASignal() async throws {
    let transport = SignalledTransport()
    let caller = withUnsafeCurrentTask { $0?.hashValue }
    let item = try await client(transport).value(Endpoint<Item>.get("/item"))
    _ = try await client(transport).send(Endpoint<Data>.post("/items", body: ["count": 1]))
    #expect(item == Item(name: "lamp"))
    #expect(caller != nil)
    #expect(transport.seen.withLock { $0 } == Array(repeating: .init(task: caller, signalled: true), count: 2))
  }

  @Test func aLoggingInterceptorWaitsOnlyOnTheChainAndLeavesTheCallInTheCallersTask() async throws {
    let transport = SignalledTransport()
    let caller = withUnsafeCurrentTask { $0?.hashValue }
    var logger = Logger(label: "test")
    logger.logLevel = .trace
    let logging = LoggingInterceptor(logger: logger)
    _ = try await client(transport) { $0.interceptors = [logging, logging] }.send(Endpoint<Data>.get("/logged"))
    #expect(transport.seen.withLock { $0 } == [.init(task: caller, signalled: true)])
  }

  @Test func aCallWithSomethingThatMayWaitKeepsItsDeadlineInATaskOfItsOwn() async throws {
    let caller = withUnsafeCurrentTask { $0?.hashValue }
    let intercepted = SignalledTransport()
    _ = try await client(intercepted) { $0.interceptors = [PassingInterceptor()] }.send(Endpoint<Data>.get("/a"))
    let other = SignalledTransport()
    let plain = client(other)
    _ = try await plain.send(Endpoint<Data>.get("/idle").idleTimeout(5))
    _ = try await plain.send(Endpoint<Data>.get("/progress").onDownloadProgress { _ in })
    _ = try await plain.send(Endpoint<Data>.get("/start").onTransportStart {})
    _ = try await plain.send(Endpoint<Data>.get("/forever").timeout(.infinity))
    for seen in intercepted.seen.withLock({ $0 }) + other.seen.withLock({ $0 }) {
      #expect(!seen.signalled)
      #expect(seen.task != caller)
    }
    #expect(other.seen.withLock { $0.count } == 4)
  }

  @Test func theSignalStopsTheTransportAtTheDeadlineAndLeavesTheCallersTaskUncancelled() async throws {
    let transport = SignalledTransport()
    let client = client(transport)
    let stopwatch = Stopwatch()
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<Data>.get("/hang").timeout(0.3))
    }
    let elapsed = stopwatch.elapsed
    #expect(error?.kind == .timeout, "\(String(describing: error))")
    #expect(elapsed >= 0.29 && elapsed < 10, "the 0.3 s deadline expired after \(elapsed) s")
    #expect(!Task.isCancelled, "the deadline cancelled the caller's task")
    #expect(try await client.value(Endpoint<Item>.get("/item")) == Item(name: "lamp"))
  }

  @Test func aSignalRunsEachHandlerOnceAndAHandlerRegisteredLateAtOnce() {
    let signal = DeadlineSignal()
    let runs = Locked<[String]>([])
    signal.onFire { runs.withLock { $0.append("early") } }
    #expect(runs.withLock { $0 }.isEmpty)
    signal.fire()
    signal.fire()
    signal.onFire { runs.withLock { $0.append("late") } }
    #expect(runs.withLock { $0 } == ["early", "late"])
  }
}
