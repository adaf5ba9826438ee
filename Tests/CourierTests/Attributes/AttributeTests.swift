import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// A setting of a third-party interceptor, declared the way the built-in ones are.
private enum Priority: AttributeKey {
  static let defaultValue = 0
}

extension Endpoint {
  fileprivate func priority(_ value: Int) -> Endpoint { attribute(Priority.self, value) }
}

/// Sends each request's priority in a header, reading it from the call's attributes.
private struct PriorityHeader: Interceptor {
  func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    var request = request
    request.headerFields[HTTPField.Name("X-Priority")!] = "\(context[Priority.self])"
    return try await next(request, body, context)
  }
}

@Suite(.hangGuard) struct AttributeTests {
  @Test func aThirdPartyInterceptorReadsItsOwnPerEndpointSetting() async throws {
    let transport = StubTransport(.any.reply(.status(.ok)))
    let client = APIClient.stubbed(transport) { $0.interceptors = [PriorityHeader()] }
    try await client.send(Endpoint<EmptyBody>.get("/urgent").priority(7))
    try await client.send(Endpoint<EmptyBody>.get("/default"))
    #expect(transport.requests.map { $0.request.headerFields[HTTPField.Name("X-Priority")!] } == ["7", "0"])
  }

  @Test func aKeyNeverSetReadsAsItsDefaultAndCanBeRemoved() {
    var attributes = Attributes()
    #expect(attributes[Priority.self] == 0)
    #expect(!attributes.contains(Priority.self))
    attributes[Priority.self] = 3
    #expect(attributes[Priority.self] == 3)
    #expect(attributes.contains(Priority.self))
    attributes.removeValue(for: Priority.self)
    #expect(attributes[Priority.self] == 0)
    #expect(attributes.isEmpty)
  }

  @Test func endpointsAreValuesSoAttributesDoNotLeakBetweenCopies() {
    let base = Endpoint<EmptyBody>.get("/a")
    let urgent = base.priority(9)
    #expect(base[Priority.self] == 0)
    #expect(urgent[Priority.self] == 9)
  }

  @Test func theTransportSeesTheCallsAttributes() async throws {
    let transport = StubTransport(.any.reply(.status(.ok)))
    // The timeout is only read here: on a clock that never moves, a busy machine cannot make it expire.
    let client = APIClient.stubbed(transport) { $0.clock = TestCallClock(advancesOnSleep: false) }
    try await client.send(Endpoint<EmptyBody>.get("/a").priority(2).timeout(45))
    let options = try #require(transport.requests.first?.options)
    #expect(options[Priority.self] == 2)
    #expect(options.timeout == 45)
    #expect(!options.deliversBodyIncrementally)
    _ = try await client.stream(Endpoint<EmptyBody>.get("/b")).body.collect()
    #expect(transport.requests.last?.options.deliversBodyIncrementally == true)
  }

  @Test func thePipelinesOwnSettingsAreTypedFieldsAndLeaveTheAttributesToInterceptors() async throws {
    let seen = Locked<CallContext?>(nil)
    let transport = StubTransport(.any.reply(.status(.ok)))
    let client = APIClient.stubbed(transport) {
      // A clock that stands still: the 5 s idle limit is read here, never reached, however busy the machine is.
      $0.clock = TestCallClock(advancesOnSleep: false)
      $0.interceptors = [
        ClosureInterceptor { request, body, context, next in
          seen.withLock { $0 = context }
          return try await next(request, body, context)
        }
      ]
      $0.maxResponseBytes = 1000
    }
    try await client.send(
      Endpoint<EmptyBody>.get("/a").maxResponseBytes(10).idleTimeout(5).redirects(.none).onTransportStart {}
        .onUploadProgress { _ in }.onDownloadProgress { _ in })
    let context = try #require(seen.withLock { $0 })
    #expect(context.attributes.isEmpty)
    #expect(context.maxResponseBytes == 10)
    #expect(context.idleTimeout == 5)
    #expect(context.redirects.maximumRedirects == 0)
    #expect(context.transportStart != nil)
    #expect(context.progress?.upload != nil && context.progress?.download != nil)
    #expect(context.deliversBodyIncrementally, "download progress reads the body as it arrives")
    let options = try #require(transport.requests.first?.options)
    #expect(options.maxResponseBytes == 10 && options.idleTimeout == 5 && options.deliversBodyIncrementally)

    try await client.send(Endpoint<EmptyBody>.get("/b").priority(1))
    let plain = try #require(seen.withLock { $0 })
    #expect(plain[Priority.self] == 1)
    #expect(plain.maxResponseBytes == 1000, "the client's limit")
    #expect(plain.idleTimeout == nil && plain.transportStart == nil && plain.progress == nil)
    #expect(!plain.deliversBodyIncrementally)
  }

  @Test func transportStartRunsOnceBeforeTheFirstAttemptAndNeverForACallThatIsNotSent() async throws {
    let starts = Locked(0)
    let transport = StubTransport(.any.reply(.status(.serviceUnavailable), .status(.ok)))
    let client = APIClient.stubbed(transport) {
      $0.interceptors = [RetryInterceptor(clock: TestCallClock())]
    }
    try await client.send(Endpoint<EmptyBody>.get("/a").onTransportStart { starts.withLock { $0 += 1 } })
    #expect(transport.requests.count == 2)
    #expect(starts.withLock { $0 } == 1)
    await #expect(throws: CourierError.self) {
      try await client.send(
        Endpoint<EmptyBody>.get("/bad header").header("X-Bad", "a\nb").onTransportStart {
          starts.withLock { $0 += 1 }
        })
    }
    #expect(starts.withLock { $0 } == 1)
  }
}

@Suite(.hangGuard) struct CacheStatusFieldTests {
  @Test func theCachesOwnMemberIsReadEvenBehindOthers() {
    var response = HTTPResponse(status: .ok)
    #expect(CacheStatus(response) == nil)
    response.headerFields[HTTPField.Name("Cache-Status")!] = "Courier; fwd=stale; fwd-status=304, cdn; hit"
    #expect(CacheStatus(response) == .revalidated)
    response.headerFields[HTTPField.Name("Cache-Status")!] = "cdn; hit"
    #expect(CacheStatus(response) == nil)
  }

  @Test func aHitIsReportedThroughTheResponseAndTheStoreKeepsNoStatus() async throws {
    let transport = StubTransport(
      .get("/feed").reply(
        .body("{}", headerFields: [.cacheControl: "max-age=60", HTTPField.Name("Cache-Status")!: "cdn; fwd=miss"])))
    let store = InMemoryCacheStore()
    let client = APIClient.stubbed(transport) { $0.interceptors = [CacheInterceptor(store: store)] }
    let first = try await client.send(Endpoint<Data>.get("/feed"))
    let second = try await client.send(Endpoint<Data>.get("/feed"))
    #expect(first.cacheStatus == .miss)
    #expect(second.cacheStatus == .hit)
    #expect(second.headerFields[HTTPField.Name("Cache-Status")!] == "Courier; hit, cdn; fwd=miss")
    #expect(transport.requests.count == 1)
    let stored = await store.entries(for: "https://api.example.com/v1/feed")
    #expect(stored.map { $0.response.headerFields[HTTPField.Name("Cache-Status")!] } == ["cdn; fwd=miss"])
  }
}
