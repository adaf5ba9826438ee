import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite struct UnmatchedRequestTests {
  @Test func theFailureListsTheClosestStubsAndHowEachDiffers() async throws {
    let transport = StubTransport(
      .get("/posts").reply(.json([Post]())),
      .post("/posts/:id").reply(.status(.ok)),
      .post("/posts").header("Idempotency-Key").reply(.status(.created)),
      .delete("/accounts/:id").reply(.status(.noContent)),
      .get("/health").reply(.status(.ok))
    )
    let client = APIClient.testing(baseURL: exampleBaseURL, transport: transport)
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.post("/posts", body: ["title": "Hi"]))
    }
    let failure = try #require(error?.underlyingError as? UnmatchedRequestError)
    #expect(error?.kind == .transport)
    #expect(error?.detail == failure.description)
    #expect(failure.candidates.map(\.stub) == ["POST /posts [Idempotency-Key]", "GET /posts", "POST /posts/:id"])
    #expect(failure.candidates[0].differences == ["the header Idempotency-Key is missing"])
    #expect(failure.candidates[1].differences == ["the method is POST, the stub expects GET"])
    #expect(failure.candidates[2].differences == ["the path /v1/posts does not match /posts/:id"])
    let lines = failure.description.split(separator: "\n").map(String.init)
    #expect(
      lines[0] == #"No stub matches POST https://api.example.test/v1/posts (body: {"title":"Hi"})"#)
    #expect(lines[1] == "The closest stubs:")
    #expect(lines[2] == "  1. POST /posts [Idempotency-Key] — the header Idempotency-Key is missing")
    #expect(lines.last == "  (2 more differ in more ways)")
    #expect(failure.request.bodyText == #"{"title":"Hi"}"#)
  }

  @Test func aTransportWithoutStubsSaysSoAndCallsTheHook() async throws {
    let seen = Locked<[String]>([])
    let transport = StubTransport(onUnmatched: { failure in seen.withLock { $0.append(failure.description) } })
    let error = await #expect(throws: CourierError.self) {
      try await APIClient.testing(transport: transport).send(Endpoint<EmptyBody>.get("/anything"))
    }
    #expect(error?.detail.hasPrefix("No stub matches GET https://api.example.test/anything") == true)
    #expect(error?.detail.contains("The transport has no stubs") == true)
    #expect(seen.withLock { $0 } == [error?.detail])
  }

  @Test func aTestingClientKeepsItsStubTransportWhateverTheConfigurationSays() async throws {
    let client = APIClient.testing(stubs: [.get("/ok")]) { configuration in
      configuration.transport = URLSessionTransport()
      configuration.timeout = 45
      // The timeout is only read here: on a clock that never moves, a busy machine cannot make it expire.
      configuration.clock = TestCallClock(advancesOnSleep: false)
    }
    #expect(client.stubTransport != nil)
    #expect(client.configuration.timeout == 45)
    #expect(try await client.send(Endpoint<EmptyBody>.get("/ok")).status == .ok)
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.get("https://example.com/"))
    }
    #expect(error?.underlyingError is UnmatchedRequestError, "answered by the stubs, not the network")
    #expect(client.stubTransport?.requests.count == 2)
  }
}
