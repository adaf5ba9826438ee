import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite struct ConcurrencyLimitTests {
  @Test func neverMoreThanTheLimitInFlight() async throws {
    let inFlight = Locked((now: 0, max: 0))
    let transport = StubTransport(
      .any.reply { _ in
        inFlight.withLock { state in
          state.now += 1
          state.max = max(state.max, state.now)
        }
        try await Task.sleep(for: .milliseconds(2))
        inFlight.withLock { $0.now -= 1 }
        return .status(.ok)
      })
    let client = APIClient.stubbed(transport) { $0.interceptors = [ConcurrencyLimitInterceptor(maxConcurrent: 4)] }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<100 { group.addTask { try await client.send(Endpoint<EmptyBody>.get("/a")) } }
      try await group.waitForAll()
    }
    #expect(inFlight.withLock { $0.max } == 4)
    #expect(transport.requests.count == 100)
  }

  @Test func waitersAreServedInOrderAndACancelledWaiterLeaves() async throws {
    let semaphore = AsyncSemaphore(permits: 1)
    try await semaphore.acquire()
    let order = Locked<[Int]>([])
    let first = Task {
      try await semaphore.acquire()
      order.withLock { $0.append(1) }
      await semaphore.release()
    }
    while await semaphore.waiting < 1 { try await Task.sleep(for: .milliseconds(5)) }
    let cancelled = Task {
      try await semaphore.acquire()
      order.withLock { $0.append(99) }
    }
    while await semaphore.waiting < 2 { try await Task.sleep(for: .milliseconds(5)) }
    let third = Task {
      try await semaphore.acquire()
      order.withLock { $0.append(3) }
      await semaphore.release()
    }
    while await semaphore.waiting < 3 { try await Task.sleep(for: .milliseconds(5)) }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    await semaphore.release()
    try await first.value
    try await third.value
    #expect(order.withLock { $0 } == [1, 3])
  }
}

@Suite struct DeduplicationTests {
  @Test func identicalConcurrentGETsShareOneTransfer() async throws {
    let transport = StubTransport(.any.reply(.body(#"{"id":1}"#).delayed(by: 0.1)))
    struct Item: Decodable, Sendable { var id: Int }
    let arrivals = ArrivalGate(expecting: 50)
    let client = APIClient.stubbed(transport) {
      $0.interceptors = [arrivals.counter, DeduplicationInterceptor(), arrivals.gate]
    }
    let ids = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<50 { group.addTask { try await client.value(Endpoint<Item>.get("/items/1").deduplicated()).id } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(ids == Array(repeating: 1, count: 50))
    #expect(transport.requests.count == 1)
  }

  @Test func differentURLsHeadersOrUnmarkedEndpointsAreNotShared() async throws {
    let transport = StubTransport(.any.reply(.status(.ok).delayed(by: 0.05)))
    let client = APIClient.stubbed(transport) { $0.interceptors = [DeduplicationInterceptor()] }
    async let a: APIResponse<EmptyBody> = client.send(Endpoint<EmptyBody>.get("/a").deduplicated())
    async let b: APIResponse<EmptyBody> = client.send(Endpoint<EmptyBody>.get("/b").deduplicated())
    async let c: APIResponse<EmptyBody> = client.send(
      Endpoint<EmptyBody>.get("/a").deduplicated().header("X-User", "2"))
    async let d: APIResponse<EmptyBody> = client.send(Endpoint<EmptyBody>.get("/a"))
    _ = try await (a, b, c, d)
    #expect(transport.requests.count == 4)
  }
}

@Suite(.hangGuard) struct MinimumDurationTests {
  @Test func callTakesAtLeastTheMinimum() async throws {
    let client = APIClient.stubbed(StubTransport(.any.reply(.status(.ok))))
    let stopwatch = Stopwatch()
    try await client.send(Endpoint<EmptyBody>.get("/a").minimumDuration(0.3))
    #expect(stopwatch.elapsed >= 0.29)
  }

  @Test func failuresAlsoWaitButCancellationIsImmediate() async throws {
    let client = APIClient.stubbed(StubTransport(.any.reply(.status(.notFound))))
    let stopwatch = Stopwatch()
    await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.get("/a").minimumDuration(0.2))
    }
    #expect(stopwatch.elapsed >= 0.19)
    // On a clock that never moves, the 60 s minimum never passes: only the cancellation can end the call (and the
    // suite's time limit fails a call that it does not end).
    let clock = TestCallClock(advancesOnSleep: false)
    let slow = APIClient.stubbed(StubTransport(.any.reply(.status(.ok)))) { $0.clock = clock }
    let task = Task { try await slow.send(Endpoint<EmptyBody>.get("/a").minimumDuration(60)) }
    try await waitUntil("the call waits out its minimum duration") { clock.sleeps == [60] }
    task.cancel()
    let error = await #expect(throws: CourierError.self) { try await task.value }
    #expect(error?.isCancellation == true)
  }
}

@Suite struct InterceptorChainTests {
  @Test func interceptorsRunInOrderAroundTheTransport() async throws {
    let trail = Locked<[String]>([])
    func tracer(_ name: String) -> ClosureInterceptor {
      ClosureInterceptor { request, body, context, next in
        trail.withLock { $0.append("\(name)>") }
        var request = request
        request.headerFields[HTTPField.Name("X-Trail")!] =
          (request.headerFields[HTTPField.Name("X-Trail")!] ?? "") + name
        let result = try await next(request, body, context)
        trail.withLock { $0.append("<\(name)") }
        return result
      }
    }
    let transport = StubTransport(.any.reply(.status(.ok)))
    let client = APIClient.stubbed(transport) { $0.interceptors = [tracer("a"), tracer("b"), tracer("c")] }
    try await client.send(Endpoint<EmptyBody>.get("/x"))
    #expect(trail.withLock { $0 } == ["a>", "b>", "c>", "<c", "<b", "<a"])
    #expect(transport.requests.first?.headerFields[HTTPField.Name("X-Trail")!] == "abc")
  }

  @Test func anInterceptorCanAnswerWithoutTheTransport() async throws {
    let transport = StubTransport(.any.reply(.status(.internalServerError)))
    let client = APIClient.stubbed(transport) {
      $0.interceptors = [
        ClosureInterceptor { _, _, _, _ in (HTTPResponse(status: .ok), BodyStream(Data("cached".utf8))) }
      ]
    }
    #expect(try await client.value(Endpoint<String>.get("/x")) == "cached")
    #expect(transport.requests.isEmpty)
  }
}
