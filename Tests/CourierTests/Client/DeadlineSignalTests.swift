import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Courier

/// A transport that honours a call's deadline signal: it records the task each request runs in and whether it got a
/// signal, never answers `/hang` until the signal fires (then fails as cancelled, or as a timeout for
/// `/hang-timeout`), and answers `/busy` with a 503 asking to retry in 30 s.
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
    if request.path == "/hang" || request.path == "/hang-timeout" {
      guard let signal = options.deadlineSignal else { throw CourierError(.transport, "no signal to wait for") }
      let kind: CourierError.Kind = request.path == "/hang" ? .cancelled : .timeout
      try await Self.hang(until: signal, failingAs: kind)
    }
    if request.path == "/busy" {
      return (HTTPResponse(status: .serviceUnavailable, headerFields: [.retryAfter: "30"]), BodyStream(Data()))
    }
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    return (response, BodyStream(Data(#"{"name":"lamp"}"#.utf8)))
  }

  /// Waits until `signal` fires (then throws a `kind` error) or the task is cancelled.
  private static func hang(until signal: DeadlineSignal, failingAs kind: CourierError.Kind) async throws {
    enum State {
      case starting
      case waiting(CheckedContinuation<Void, any Error>)
      case stopped(any Error)
    }
    let state = Locked(State.starting)
    let stop = { @Sendable (error: any Error) in
      let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        switch state {
        case .stopped:
          return nil
        case .starting:
          state = .stopped(error)
          return nil
        case .waiting(let continuation):
          state = .stopped(error)
          return continuation
        }
      }
      waiting?.resume(throwing: error)
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let stopped = state.withLock { state -> (any Error)? in
          if case .stopped(let error) = state { return error }
          state = .waiting(continuation)
          return nil
        }
        if let stopped { continuation.resume(throwing: stopped) }
        signal.onFire { stop(CourierError(kind, "stopped by the call's deadline")) }
      }
    } onCancel: {
      stop(CancellationError())
    }
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
    _ = try await plain.send(Endpoint<Data>.get("/idle").idleTimeout(60))
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
    let clock = TestDelayClock(advancesOnSleep: false)
    let client = client(transport) { $0.clock = clock }
    try await expectTimeout(on: clock, at: 0.3, once: { !transport.seen.withLock { $0.isEmpty } }) {
      let result = try await client.send(Endpoint<Data>.get("/hang").timeout(0.3))
      #expect(!Task.isCancelled, "the deadline cancelled the caller's task")
      return result
    }
    #expect(transport.seen.withLock { $0 }.map(\.signalled) == [true])
    #expect(try await client.value(Endpoint<Item>.get("/item")) == Item(name: "lamp"))
  }

  @Test func aRetryAndAConcurrencyLimitLeaveTheCallInTheCallersTask() async throws {
    let transport = SignalledTransport()
    let caller = withUnsafeCurrentTask { $0?.hashValue }
    let limited = client(transport) {
      $0.interceptors = [RetryInterceptor(), ConcurrencyLimitInterceptor(maxConcurrent: 2)]
    }
    #expect(try await limited.value(Endpoint<Item>.get("/item")) == Item(name: "lamp"))
    #expect(transport.seen.withLock { $0 } == [.init(task: caller, signalled: true)])
  }

  @Test func aCallThroughARetryWaitingTimesOutAtItsDeadlineInTheCallersTask() async throws {
    let transport = SignalledTransport()
    let clock = TestDelayClock(advancesOnSleep: false)
    let retrying = Locked(0)
    let client = client(transport) {
      $0.clock = clock
      $0.interceptors = [RetryInterceptor(maxAttempts: 3, clock: clock)]
      $0.eventHandler = { event in
        if case .retrying = event { retrying.withLock { $0 += 1 } }
      }
    }
    // The retry waits the 30 s the server asked for on the same clock; the deadline at 0.3 s ends that wait.
    try await expectTimeout(on: clock, at: 0.3, once: { retrying.withLock { $0 } == 1 && clock.pendingWaits == 2 }) {
      try await client.send(Endpoint<Data>.get("/busy").timeout(0.3))
    }
    #expect(transport.seen.withLock { $0 }.map(\.signalled) == [true])
    #expect(clock.sleeps == [30])
  }

  @Test func theSignalEndsARetrysDelay() async throws {
    let signal = DeadlineSignal()
    let attempts = Locked(0)
    // The signal fires once the retry has said it will wait.
    let events = EventSink { event in
      guard case .retrying = event else { return }
      Task {
        try await pause(milliseconds: 50)
        signal.fire()
      }
    }
    var context = CallContext(attributes: Attributes(), timeout: 60, attempt: 1, callID: 1, events: events)
    context.deadlineSignal = signal
    let busy = InterceptorNext { _, _, _ in
      attempts.withLock { $0 += 1 }
      return (HTTPResponse(status: .serviceUnavailable, headerFields: [.retryAfter: "30"]), BodyStream(Data()))
    }
    let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/busy")
    let stopwatch = Stopwatch()
    let error = await #expect(throws: CourierError.self) {
      try await RetryInterceptor(maxAttempts: 3).intercept(request, body: nil, context: context, next: busy)
    }
    #expect(error?.kind == .cancelled, "\(String(describing: error))")
    #expect(stopwatch.elapsed < 20, "the signal ended the 30 s delay after \(stopwatch.elapsed) s")
    #expect(attempts.withLock { $0 } == 1)
  }

  @Test func aTransportsTimeoutAtTheDeadlineIsNotRetried() async throws {
    let transport = SignalledTransport()
    let retrying = Locked(0)
    let client = client(transport) {
      $0.interceptors = [RetryInterceptor(maxAttempts: 3, baseDelay: 0)]
      $0.eventHandler = { event in
        if case .retrying = event { retrying.withLock { $0 += 1 } }
      }
    }
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<Data>.get("/hang-timeout").timeout(0.3))
    }
    #expect(error?.kind == .timeout, "\(String(describing: error))")
    #expect(transport.seen.withLock { $0.count } == 1)
    #expect(retrying.withLock { $0 } == 0, "the deadline had passed: no attempt is left to make")
  }

  @Test func theSignalTakesAWaiterOutOfAFullConcurrencyLimit() async throws {
    let transport = SignalledTransport()
    let clock = TestDelayClock(advancesOnSleep: false)
    let client = client(transport) {
      $0.clock = clock
      $0.interceptors = [ConcurrencyLimitInterceptor(maxConcurrent: 1)]
    }
    let holder = Task { try await client.send(Endpoint<Data>.get("/hang").timeout(20)) }
    try await waitUntil("the holder reached the transport") { !transport.seen.withLock { $0.isEmpty } }
    // The waiter's deadline is registered when its call starts: two deadlines wait on the clock then.
    try await expectTimeout(on: clock, at: 0.3, once: { clock.pendingWaits == 2 }) {
      try await client.send(Endpoint<Data>.get("/item").timeout(0.3))
    }
    #expect(transport.seen.withLock { $0.count } == 1, "the waiter never reached the transport")
    holder.cancel()
    let held = await holder.result
    #expect(throws: CourierError.self) { try held.get() }
    #expect(try await client.value(Endpoint<Item>.get("/item")) == Item(name: "lamp"), "the slot came back")
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
