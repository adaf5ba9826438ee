import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// A transport that records the task each request runs in, never answers `/hang` until that task is cancelled (then
/// fails as cancelled, or as a timeout for `/hang-timeout`, as an engine's own timer would), and answers `/busy` with a
/// 503 asking to retry in 30 s.
private final class HangingTransport: HTTPTransport, Sendable {
  let seen = Locked<[Int?]>([])

  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    let task = withUnsafeCurrentTask { $0?.hashValue }
    seen.withLock { $0.append(task) }
    if request.path == "/hang" || request.path == "/hang-timeout" {
      do {
        try await Task.sleep(for: .seconds(3600))
      } catch {
        throw request.path == "/hang"
          ? CancellationError() as any Error : CourierError(.timeout, "the engine's own timer")
      }
    }
    if request.path == "/busy" {
      return (HTTPResponse(status: .serviceUnavailable, headerFields: [.retryAfter: "30"]), BodyStream(Data()))
    }
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    return (response, BodyStream(Data(#"{"name":"lamp"}"#.utf8)))
  }
}

private struct Item: Decodable, Equatable {
  let name: String
}

/// A call's deadline cancels the task its work runs in — never the caller's — and everything on the way ends with it:
/// the transport's request, a retry's delay, a wait for a free slot.
@Suite(.hangGuard) struct DeadlineCancellationTests {
  private func client(
    _ transport: HangingTransport, _ configure: (inout APIClient.Configuration) -> Void = { _ in }
  ) -> APIClient {
    var configuration = APIClient.Configuration(baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport)
    configure(&configuration)
    return APIClient(configuration: configuration)
  }

  @Test func theDeadlineStopsTheTransportAndLeavesTheCallersTaskUncancelled() async throws {
    let transport = HangingTransport()
    let clock = TestCallClock(advancesOnSleep: false)
    let client = client(transport) { $0.clock = clock }
    try await expectTimeout(on: clock, at: 0.3, once: { !transport.seen.withLock { $0.isEmpty } }) {
      let result = try await client.send(Endpoint<Data>.get("/hang").timeout(0.3))
      #expect(!Task.isCancelled, "the deadline cancelled the caller's task")
      return result
    }
    let caller = withUnsafeCurrentTask { $0?.hashValue }
    #expect(transport.seen.withLock { $0 }.count == 1)
    #expect(transport.seen.withLock { $0 }.first != caller, "the work ran in a task the deadline could cancel")
    #expect(try await client.value(Endpoint<Item>.get("/item")) == Item(name: "lamp"))
  }

  @Test func aCallThroughARetryWaitingTimesOutAtItsDeadline() async throws {
    let transport = HangingTransport()
    let clock = TestCallClock(advancesOnSleep: false)
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
    #expect(transport.seen.withLock { $0 }.count == 1)
    #expect(clock.sleeps == [30])
  }

  @Test func aTransportsTimeoutAtTheDeadlineIsNotRetried() async throws {
    let transport = HangingTransport()
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

  @Test func theDeadlineTakesAWaiterOutOfAFullConcurrencyLimit() async throws {
    let transport = HangingTransport()
    let clock = TestCallClock(advancesOnSleep: false)
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
}
