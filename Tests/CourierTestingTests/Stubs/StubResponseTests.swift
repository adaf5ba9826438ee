import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.hangGuard) struct StubResponseTests {
  @Test func aSequenceAnswersInOrderThenRepeatsTheLast() async throws {
    let clock = TestCallClock()
    let transport = StubTransport(
      .get("/feed").reply(
        .status(.serviceUnavailable, headerFields: [.retryAfter: "4"]), .json(["item"]), .json(["item", "newer"])))
    let client = APIClient.testing(transport: transport) { $0.interceptors = [RetryInterceptor(clock: clock)] }
    #expect(try await client.value(Endpoint<[String]>.get("/feed")) == ["item"])
    #expect(clock.sleeps == [4])
    #expect(try await client.value(Endpoint<[String]>.get("/feed")) == ["item", "newer"])
    #expect(try await client.value(Endpoint<[String]>.get("/feed")) == ["item", "newer"])
    #expect(transport.requests.count == 4)
    transport.reset()
    #expect(transport.requests.isEmpty)
    let error = await #expect(throws: CourierError.self) {
      try await APIClient.testing(transport: transport).send(Endpoint<[String]>.get("/feed"))
    }
    #expect(error?.status == .serviceUnavailable, "reset starts the sequence again")
  }

  @Test func delaysWaitOnTheInjectedClock() async throws {
    let clock = TestCallClock()
    let transport = StubTransport(.get("/slow").reply(.json(User(id: 1, name: "Ada")).delayed(by: 2.5)), clock: clock)
    // The injected clock recorded the delay and moved on; no wall-clock bound, which a loaded machine would break.
    let user = try await APIClient.testing(transport: transport).value(Endpoint<User>.get("/slow"))
    #expect(user.name == "Ada")
    #expect(clock.sleeps == [2.5])
    #expect(clock.now == Date(timeIntervalSince1970: 1_800_000_002.5))
  }

  @Test func realDelaysEndAtOnceWhenTheTaskIsCancelled() async throws {
    // An hour's delay: ending within minutes can only be the cancellation, however loaded the machine.
    let transport = StubTransport(.get("/slow").reply(.status(.ok).delayed(by: 3600)))
    let client = APIClient.testing(transport: transport)
    let start = ProcessInfo.processInfo.systemUptime
    let task = Task { try await client.send(Endpoint<EmptyBody>.get("/slow")) }
    try await Task.sleep(for: .milliseconds(50))
    task.cancel()
    let error = await #expect(throws: CourierError.self) { try await task.value }
    #expect(error?.isCancellation == true)
    #expect(ProcessInfo.processInfo.systemUptime - start < 300)
  }

  @Test func transportFailuresHaveTheKindsAClientSees() async {
    struct Weird: Error {}
    let cases: [(StubResponse, CourierError.Kind, Bool)] = [
      (.timeout, .timeout, true), (.noConnection, .noConnection, true), (.connectionLost, .connectionLost, true),
      (.urlError(.timedOut), .timeout, true), (.urlError(.notConnectedToInternet), .noConnection, true),
      (.urlError(.networkConnectionLost), .connectionLost, true), (.failure(.tls, "bad certificate"), .tls, false),
      (.error(Weird()), .transport, false),
    ]
    for (response, kind, retryable) in cases {
      let client = APIClient.testing(stubs: [.any.reply(response)])
      let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/a")) }
      #expect(error?.kind == kind)
      #expect(error?.isRetryable == retryable, "\(kind)")
      #expect(error?.request?.path == "/a")
    }
  }

  @Test func transientFailuresThenSuccessAreRetried() async throws {
    let transport = StubTransport(.get("/a").reply(.timeout, .connectionLost, .body("ok")))
    let client = APIClient.testing(transport: transport) {
      $0.interceptors = [RetryInterceptor(clock: TestCallClock())]
    }
    #expect(try await client.value(Endpoint<String>.get("/a")) == "ok")
    #expect(transport.requests.count == 3)
  }

  @Test func closureRepliesSeeTheRequestAndMayThrow() async throws {
    let transport = StubTransport(
      .post("/echo").reply { request in .body(request.bodyText ?? "", headerFields: request.headerFields) },
      .get("/boom").reply { _ in throw URLError(.cannotConnectToHost) }
    )
    let client = APIClient.testing(transport: transport)
    let echoed = try await client.send(Endpoint<String>.post("/echo").body(.text("hello")))
    #expect(echoed.value == "hello")
    #expect(echoed.headerFields[.contentType] == "text/plain; charset=utf-8")
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/boom")) }
    #expect(error?.kind == .noConnection)
  }

  @Test func bodiesFromValuesFilesAndSamples() async throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fixture = folder.appendingPathComponent("user.json")
    try Data(#"{"id":7,"name":"From a file"}"#.utf8).write(to: fixture)
    struct Stamp: Codable, Sendable, Equatable { var at: Date }
    let transport = StubTransport(
      .get("/file").reply(.file(fixture)),
      .get("/missing").reply(.file(folder.appendingPathComponent("nope.json"))),
      .get("/stamp").reply(.json(Stamp(at: Date(timeIntervalSince1970: 0)), status: .accepted)),
      .get("/sample").reply(.sample(.text("sampled", status: .created)))
    )
    let client = APIClient.testing(transport: transport)
    let file = try await client.send(Endpoint<User>.get("/file"))
    #expect(file.value == User(id: 7, name: "From a file"))
    #expect(file.headerFields[.contentType] == "application/json")
    let missing = await #expect(throws: CourierError.self) { try await client.send(Endpoint<User>.get("/missing")) }
    #expect(missing?.detail.contains("nope.json") == true)
    let stamp = try await client.send(Endpoint<Stamp>.get("/stamp"))
    #expect(stamp.status == .accepted)
    #expect(String(decoding: stamp.data, as: UTF8.self) == #"{"at":"1970-01-01T00:00:00Z"}"#)
    let sample = try await client.send(Endpoint<String>.get("/sample"))
    #expect(sample.value == "sampled")
    #expect(sample.status == .created)
  }

  @Test func everyRequestIsRecordedWithItsBodyAndOptions() async throws {
    let transport = StubTransport(.post("/posts").named("create post").reply(.status(.created)))
    // The timeout is only recorded here: on a clock that never moves, a busy machine cannot make it expire.
    let client = APIClient.testing(transport: transport) { $0.clock = TestCallClock(advancesOnSleep: false) }
    try await client.send(
      Endpoint<EmptyBody>.post("/posts", body: NewPost(title: "Hi", body: "there")).query(["draft": true]).timeout(45)
        .expect(.created))
    await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/nothing")) }
    let recorded = transport.requests
    #expect(recorded.count == 2)
    #expect(recorded[0].method == .post)
    #expect(recorded[0].url?.absoluteString == "https://api.example.test/posts?draft=true")
    #expect(recorded[0].path == "/posts")
    #expect(recorded[0].queryItems == [URLQueryItem(name: "draft", value: "true")])
    #expect(recorded[0].queryValue("draft") == "true")
    #expect(recorded[0].headerFields[.contentType] == "application/json")
    #expect(try recorded[0].decodeBody(as: NewPost.self) == NewPost(title: "Hi", body: "there"))
    #expect(recorded[0].options.timeout == 45)
    #expect(recorded[0].stub == "create post")
    #expect(recorded[1].stub == nil)
    #expect(recorded[1].body == nil)
    #expect(transport.unmatchedRequests.map(\.path) == ["/nothing"])
  }
}
