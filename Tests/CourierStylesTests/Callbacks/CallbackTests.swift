import CourierStyles
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Callback-style calls against the demo API, over each transport.
@Suite(.hangGuard) struct CallbackTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func successRunsStartedProgressAndSuccessInOrder(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let log = CallbackLog()
      let product = Locked<Product?>(nil)
      await client.call(Endpoint<Product>.get("/products/7"))
        .logging(to: log)
        .onSuccess { value in product.withLock { $0 = value } }
        .execute()
        .finished()
      #expect(log.events == ["started", "progress 0.0", "progress 1.0"])
      #expect(product.withLock { $0?.id } == 7, "the last onSuccess set wins")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aSpecificHandlerTakesPrecedenceOverOnError(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let log = CallbackLog()
      await client.call(Endpoint<DemoUser>.get("/users/me")).logging(to: log).execute().finished()
      #expect(log.events == ["started", "progress 0.0", "notAuthorized 401"])

      let fallback = CallbackLog()
      await client.call(Endpoint<DemoUser>.get("/users/me"))
        .onError { fallback.record("error \($0.status?.code ?? 0)") }
        .execute().finished()
      #expect(fallback.events == ["error 401"], "without onNotAuthorized, onError gets the 401")

      let serverError = CallbackLog()
      await client.call(Endpoint<EmptyBody>.get("/status/500")).logging(to: serverError).execute().finished()
      #expect(serverError.events == ["started", "progress 0.0", "error 500"])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func timeoutsAndCancellationsHaveTheirOwnHandlers(_ transport: TransportKind) async throws {
    // The deadline passes when the test moves the clock, once the start was reported.
    let clock = TestCallClock(advancesOnSleep: false)
    try await withDemoServer(transport, { $0.clock = clock }) { client, _ in
      let timedOut = CallbackLog()
      let timing = client.call(Endpoint<EmptyBody>.get("/slow").query(["ms": 60_000]).timeout(10))
        .logging(to: timedOut).execute()
      try await waitUntil("the call started") { timedOut.contains("started") }
      clock.advance(by: 10)
      await timing.finished()
      #expect(timedOut.events == ["started", "progress 0.0", "timeout"])

      // Not cancelled, the call would end after the server's 60 s with a success.
      let cancelled = CallbackLog()
      let handle = client.call(Endpoint<EmptyBody>.get("/slow").query(["ms": 60_000])).logging(to: cancelled).execute()
      try await waitUntil("the call started") { cancelled.contains("started") }
      handle.cancel()
      await handle.finished()
      #expect(handle.isCancelled)
      #expect(cancelled.events == ["started", "progress 0.0", "cancellation"])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func offlineBeforeTheTransportSkipsOnRequestStarted(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { _, server in
      let offlineCheck = ClosureInterceptor { request, _, _, _ in
        throw CourierError(.noConnection, "The device is offline", request: request)
      }
      let offline = server.client { $0.interceptors = [offlineCheck] }
      let log = CallbackLog()
      await offline.call(Endpoint<Product>.get("/products/1")).logging(to: log).execute().finished()
      #expect(log.events == ["networkUnavailable"])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aRefusedConnectionReportsTheNetworkUnavailableWithoutStarting(_ transport: TransportKind) async throws {
    var port = 0
    try await withDemoServer(transport) { _, server in port = server.baseURL.port ?? 0 }
    try await withTransport(transport) { transport in
      let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")) { $0.transport = transport }
      let log = CallbackLog()
      await client.call(Endpoint<Product>.get("/products/1")).logging(to: log).execute().finished()
      #expect(log.events == ["networkUnavailable"], "the request never reached a server")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func executeFiresWithoutASuccessHandler(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      struct NewPost: Encodable, Sendable {
        var title = "Fired and forgotten"
        var body = "No handler needed"
      }
      await client.call(Endpoint<EmptyBody>.post("/posts", body: NewPost())).execute().finished()
      struct Post: Decodable, Sendable { var title: String }
      let posts = try await client.value(Endpoint<[Post]>.get("/posts"))
      #expect(posts.contains { $0.title == "Fired and forgotten" })
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func cancellingTheRequestCancelsEveryExecution(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let log = CallbackLog()
      let request = client.call(Endpoint<EmptyBody>.get("/slow").query(["ms": 60_000]))
        .onCancellation { _ in log.record("cancellation") }
        .onRequestStarted { log.record("started") }
      let first = request.execute()
      let second = request.execute()
      try await waitUntil("both executions started") { log.events.filter { $0 == "started" }.count == 2 }
      request.cancel()
      await first.finished()
      await second.finished()
      // Not cancelled, each would end after the server's 60 s with a success.
      #expect(log.events.filter { $0 == "cancellation" }.count == 2)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func callbacksWaitForTheMainActorByDefault(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { _, server in
      let log = CallbackLog()
      let client = server.client { configuration in
        configuration.eventHandler = { event in
          if case .finished = event { log.record("finished") }
        }
      }
      let (finishedWhileBlocked, succeededWhileBlocked) = await MainActor.run {
        client.call(Endpoint<Product>.get("/products/1"))
          .onSuccess { _ in log.record("success") }
          .onError { log.record("error \($0)") }
          .execute()
        return (log.blockUntil("finished"), log.contains("success"))
      }
      #expect(finishedWhileBlocked)
      #expect(!succeededWhileBlocked, "onSuccess waits for the main actor, which the test held")
      #expect(await waitFor("success", in: log))
      #expect(log.events == ["finished", "success"])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func nonisolatedCallbacksRunWhileTheMainActorIsBusy(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let log = CallbackLog()
      let ranWhileBlocked = await MainActor.run {
        client.call(Endpoint<Product>.get("/products/1"))
          .callbacks(on: .nonisolated)
          .onRequestStarted { log.record("started") }
          .onSuccess { _ in log.record("success") }
          .execute()
        return log.blockUntil("success")
      }
      #expect(ranWhileBlocked, "onSuccess ran although the test held the main actor")
      #expect(log.events == ["started", "success"])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func callbacksCanRunOnAnActorOfYourChoice(_ transport: TransportKind) async throws {
    actor Inbox {
      var products: [Int] = []
    }
    try await withDemoServer(transport) { client, _ in
      let inbox = Inbox()
      await client.call(Endpoint<Product>.get("/products/3"))
        .callbacks(on: .actor(inbox))
        .onSuccess { product in inbox.assumeIsolated { $0.products.append(product.id) } }
        .execute()
        .finished()
      #expect(await inbox.products == [3])
    }
  }
}

/// Waits for `event` to be recorded (a main-actor callback may queue behind other tests that hold the main actor);
/// whether it came before the wait counted as hung.
@available(macOS 14, iOS 17, tvOS 17, *)
private func waitFor(_ event: String, in log: CallbackLog) async -> Bool {
  (try? await waitUntil(event) { log.contains(event) }) != nil
}
