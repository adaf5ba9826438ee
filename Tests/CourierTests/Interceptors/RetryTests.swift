import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite struct RetryDelayTests {
  @Test func backoffGrowsExponentiallyWithFullJitterAndACap() {
    let retry = RetryInterceptor(maxDelay: 3)
    #expect(retry.backoff(beforeRetry: 1, random: 1) == 0.5)
    #expect(retry.backoff(beforeRetry: 2, random: 1) == 1)
    #expect(retry.backoff(beforeRetry: 3, random: 1) == 2)
    #expect(retry.backoff(beforeRetry: 4, random: 1) == 3)
    #expect(retry.backoff(beforeRetry: 10, random: 0.5) == 1.5)
    #expect(retry.backoff(beforeRetry: 2, random: 0) == 0)
    #expect(RetryInterceptor(jitter: false).backoff(beforeRetry: 2, random: 0) == 1)
  }

  @Test func retryAfterInSecondsAndAsAnHTTPDate() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    func response(_ code: Int, _ value: String) -> HTTPResponse {
      HTTPResponse(status: .init(code: code), headerFields: [.retryAfter: value])
    }
    #expect(RetryInterceptor.retryAfter(in: response(503, "7"), now: now) == 7)
    #expect(RetryInterceptor.retryAfter(in: response(429, " 0 "), now: now) == 0)
    #expect(RetryInterceptor.retryAfter(in: response(503, HTTPDate.format(now.addingTimeInterval(42))), now: now) == 42)
    #expect(RetryInterceptor.retryAfter(in: response(503, HTTPDate.format(now.addingTimeInterval(-5))), now: now) == 0)
    #expect(RetryInterceptor.retryAfter(in: response(503, "Sunday, 06-Nov-94 08:49:37 GMT"), now: now) == 0)
    #expect(RetryInterceptor.retryAfter(in: response(503, "soon"), now: now) == nil)
    #expect(RetryInterceptor.retryAfter(in: response(503, "-3"), now: now) == nil)
    #expect(RetryInterceptor.retryAfter(in: response(500, "7"), now: now) == nil, "only 429 and 503 carry Retry-After")
  }

  @Test func httpDateParsesAllThreeForms() {
    let expected = Date(timeIntervalSince1970: 784_111_777)
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
    #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
    #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
    #expect(HTTPDate.format(expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
  }

  @Test func idempotencyRules() {
    let retry = RetryInterceptor()
    // The interceptor's default list is the one the rest of Courier calls idempotent.
    #expect(retry.idempotentMethods == HTTPRequest.Method.idempotent)
    for method in [HTTPRequest.Method.get, .head, .put, .delete, .options, .trace] {
      #expect(retry.allowsRetry(of: HTTPRequest(method: method, scheme: "https", authority: "x", path: "/")))
    }
    #expect(!retry.allowsRetry(of: HTTPRequest(method: .post, scheme: "https", authority: "x", path: "/")))
    #expect(!retry.allowsRetry(of: HTTPRequest(method: .patch, scheme: "https", authority: "x", path: "/")))
    let keyed = HTTPRequest(
      method: .post, scheme: "https", authority: "x", path: "/", headerFields: [HTTPField.Name("Idempotency-Key")!: "k"]
    )
    #expect(retry.allowsRetry(of: keyed))
  }
}

@Suite struct RetryInterceptorTests {
  /// A transport that answers `failure` `failures` times, then 200 with `{}`.
  func flaky(failures: Int, _ failure: StubResponse) -> StubTransport {
    StubTransport(.any.reply(Array(repeating: failure, count: failures) + [.body("{}")]))
  }

  func client(_ transport: StubTransport, _ clock: TestCallClock, maxAttempts: Int = 3) -> APIClient {
    .stubbed(transport) { $0.interceptors = [RetryInterceptor(maxAttempts: maxAttempts, clock: clock, random: { 1 })] }
  }

  @Test func retries503UntilSuccessWaitingRetryAfter() async throws {
    let transport = flaky(failures: 2, .status(.serviceUnavailable, headerFields: [.retryAfter: "4"]))
    let clock = TestCallClock()
    let response = try await client(transport, clock).send(Endpoint<EmptyBody>.get("/a"))
    #expect(response.status == .ok)
    #expect(transport.requests.count == 3)
    #expect(clock.sleeps == [4, 4])
  }

  @Test func backoffDelaysFollowThePolicyWithoutRetryAfter() async throws {
    let transport = flaky(failures: 3, .status(.badGateway))
    let clock = TestCallClock()
    try await client(transport, clock, maxAttempts: 4).send(Endpoint<EmptyBody>.get("/a"))
    #expect(transport.requests.count == 4)
    #expect(clock.sleeps == [0.5, 1, 2])
  }

  @Test func givesUpAfterMaxAttemptsWithTheLastResponse() async {
    let transport = flaky(failures: 10, .body("down", status: .serviceUnavailable))
    let clock = TestCallClock()
    let error = await #expect(throws: CourierError.self) {
      try await client(transport, clock).send(Endpoint<EmptyBody>.get("/a"))
    }
    #expect(error?.status == .serviceUnavailable)
    #expect(error?.body == Data("down".utf8))
    #expect(transport.requests.count == 3)
  }

  @Test func retryAfterLongerThanTheMaximumEndsRetries() async {
    let transport = flaky(failures: 1, .status(.tooManyRequests, headerFields: [.retryAfter: "3600"]))
    let clock = TestCallClock()
    let error = await #expect(throws: CourierError.self) {
      try await client(transport, clock).send(Endpoint<EmptyBody>.get("/a"))
    }
    #expect(error?.status == .tooManyRequests)
    #expect(transport.requests.count == 1)
    #expect(clock.sleeps.isEmpty)
  }

  @Test func postWithoutIdempotencyKeyIsSentOnceAndWithOneIsRetried() async throws {
    let once = flaky(failures: 1, .status(.serviceUnavailable))
    let clock = TestCallClock()
    await #expect(throws: CourierError.self) {
      try await client(once, clock).send(Endpoint<EmptyBody>.post("/a", body: ["x": 1]))
    }
    #expect(once.requests.count == 1)
    let keyed = flaky(failures: 1, .status(.serviceUnavailable))
    try await client(keyed, clock).send(Endpoint<EmptyBody>.post("/a", body: ["x": 1]).idempotencyKey("k-1"))
    #expect(keyed.requests.count == 2)
    #expect(keyed.requests.allSatisfy { $0.body == Data(#"{"x":1}"#.utf8) }, "the body is replayed intact")
  }

  @Test(arguments: [URLError.Code.timedOut, .networkConnectionLost, .cannotConnectToHost])
  func transientTransportFailuresAreRetried(_ code: URLError.Code) async throws {
    let transport = flaky(failures: 2, .urlError(code))
    try await client(transport, TestCallClock()).send(Endpoint<EmptyBody>.get("/a"))
    #expect(transport.requests.count == 3)
  }

  @Test func cancellationAndPermanentErrorsAreNotRetried() async {
    for failure in [URLError(.cancelled), URLError(.badURL), URLError(.secureConnectionFailed)] {
      let transport = flaky(failures: 5, .error(failure))
      await #expect(throws: CourierError.self) {
        try await client(transport, TestCallClock()).send(Endpoint<EmptyBody>.get("/a"))
      }
      #expect(transport.requests.count == 1, "\(failure.code)")
    }
  }

  @Test func nonRetryableStatusesAndOptOutsAreSentOnce() async {
    let notFound = flaky(failures: 5, .status(.notFound))
    await #expect(throws: CourierError.self) {
      try await client(notFound, TestCallClock()).send(Endpoint<EmptyBody>.get("/a"))
    }
    #expect(notFound.requests.count == 1)
    let optedOut = flaky(failures: 5, .status(.serviceUnavailable))
    await #expect(throws: CourierError.self) {
      try await client(optedOut, TestCallClock()).send(Endpoint<EmptyBody>.get("/a").retries(false))
    }
    #expect(optedOut.requests.count == 1)
  }

  @Test func retryableStatusesCanBeChanged() async throws {
    var retry = RetryInterceptor(clock: TestCallClock(), random: { 1 })
    retry.retryableStatuses.remove(.serviceUnavailable)
    retry.retryableStatuses.insert(.notFound)
    let configured = retry
    let notFound = flaky(failures: 1, .status(.notFound))
    try await APIClient.stubbed(notFound) { $0.interceptors = [configured] }.send(Endpoint<EmptyBody>.get("/a"))
    #expect(notFound.requests.count == 2)
    let unavailable = flaky(failures: 1, .status(.serviceUnavailable))
    await #expect(throws: CourierError.self) {
      try await APIClient.stubbed(unavailable) { $0.interceptors = [configured] }.send(Endpoint<EmptyBody>.get("/a"))
    }
    #expect(unavailable.requests.count == 1)
  }

  @Test func aSingleUseBodyIsNotRetried() async {
    let transport = flaky(failures: 5, .status(.serviceUnavailable))
    let stream = AsyncStream<Data> { continuation in
      continuation.yield(Data("x".utf8))
      continuation.finish()
    }
    let endpoint = Endpoint<EmptyBody>.put("/a").body(.body(BodyStream(stream, length: 1)))
    await #expect(throws: CourierError.self) { try await client(transport, TestCallClock()).send(endpoint) }
    #expect(transport.requests.count == 1)
  }

  @Test func cancellingDuringTheWaitStopsAtOnce() async {
    let transport = flaky(failures: 5, .status(.serviceUnavailable, headerFields: [.retryAfter: "30"]))
    let client = APIClient.stubbed(transport) { $0.interceptors = [RetryInterceptor()] }
    let task = Task { try await client.send(Endpoint<EmptyBody>.get("/a")) }
    try? await waitUntil("the first attempt") { !transport.requests.isEmpty }
    try? await Task.sleep(for: .milliseconds(50))
    task.cancel()
    let error = await #expect(throws: CourierError.self) { try await task.value }
    #expect(error?.isCancellation == true)
    #expect(transport.requests.count == 1)
  }

  @Test func eventsReportRetriesAndFinalMetrics() async throws {
    let events = Locked<[CourierEvent]>([])
    let transport = flaky(failures: 2, .status(.serviceUnavailable))
    let client = APIClient.stubbed(transport) {
      $0.interceptors = [RetryInterceptor(clock: TestCallClock(), random: { 0.5 })]
      $0.eventHandler = { event in events.withLock { $0.append(event) } }
    }
    try await client.send(Endpoint<EmptyBody>.put("/a", body: ["k": "v"]))
    let recorded = events.withLock { $0 }
    #expect(recorded.count == 7)
    guard case .started = recorded.first,
      case .finished(_, _, let attempts, let bytesSent, let bytesReceived, let status, let error) = recorded.last
    else {
      Issue.record("unexpected events \(recorded)")
      return
    }
    #expect(error == nil)
    #expect(attempts == 3)
    #expect(bytesSent == 3 * 9)
    #expect(bytesReceived == 2)
    #expect(status == .ok)
    let retries = recorded.compactMap { event -> (Int, TimeInterval)? in
      if case .retrying(_, let attempt, let delay, _) = event { return (attempt, delay) }
      return nil
    }
    #expect(retries.map(\.0) == [2, 3])
    #expect(retries.map(\.1) == [0.25, 0.5])
  }
}
