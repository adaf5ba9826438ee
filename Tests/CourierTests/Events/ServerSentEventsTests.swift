import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// `APIClient.events` over every transport: the demo API's event stream, and a scripted server for the edges.
@Suite(.hangGuard) struct ServerSentEventsTests {
  struct Tick: Decodable, Equatable, Sendable {
    var index: Int
    var text: String
  }

  /// A stream response head without a length: the body runs until the server closes the connection.
  static let streamHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nConnection: close\r\n\r\n"

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func reconnectionResumesAfterTheLastIDUntilTheServerSays204(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      // A recording clock: the test sees the delays without waiting them.
      let clock = TestCallClock()
      // The server resets the connection after every 2 events and asks for a 20 ms delay.
      let events = client.events(
        Endpoint<Data>.get("/stream/events").query(["count": 5, "drop": 2, "retry": 20]), of: Tick.self,
        clock: clock)
      var received: [Int] = []
      let error = await #expect(throws: CourierError.self) {
        for try await tick in events { received.append(tick.index) }
      }
      #expect(received == [0, 1, 2, 3, 4], "every event once, in order")
      #expect(error?.kind == .unacceptableStatus)
      #expect(error?.status == .noContent)
      // Two drops and a clean end, each after the server's retry: the server resets a connection only once the
      // client acknowledged every event sent on it, so no reconnection repeats an event.
      #expect(clock.sleeps.count == 3, "\(clock.sleeps)")
      #expect(clock.sleeps.allSatisfy { $0 == 0.02 }, "every reconnection waits the server's retry")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func rawEventsCarryTheirIDsAndTypes(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      var iterator = client.events(Endpoint<Data>.get("/stream/events").query(["count": 3])).makeAsyncIterator()
      let first = try await iterator.next()
      #expect(first == ServerEvent(id: "0", event: "message", data: #"{"index":0,"text":"event 0"}"#))
      #expect(try await iterator.next()?.id == "1")
    }
  }

  @Test(arguments: TransportKind.allCases)
  func theRequestAsksForAStreamAndResumesWithLastEventID(_ kind: TransportKind) async throws {
    let server = try await ScriptedServer.start { connection in
      guard try await connection.readRequest() != nil else { return }
      if connection.index == 0 {
        try await connection.write(Self.streamHead + "id: 41\ndata: a\n\nretry: 5\nid: 42\ndata: b\n\n")
        await connection.close()
      } else {
        try await connection.respond(204, reason: "No Content")
      }
    }
    try await withTransport(kind) { transport in
      let client = APIClient(configuration: .init(baseURL: server.baseURL, transport: transport))
      let clock = TestCallClock()
      var data: [String] = []
      let error = await #expect(throws: CourierError.self) {
        for try await event in client.events(Endpoint<Data>.get("/feed"), clock: clock) {
          data.append(event.data)
        }
      }
      #expect(data == ["a", "b"])
      #expect(error?.status == .noContent)
      #expect(clock.sleeps == [0.005])
      let requests = server.requests
      #expect(requests.count == 2)
      #expect(requests.first?.header("Accept") == "text/event-stream")
      #expect(requests.first?.header("Cache-Control") == "no-cache")
      #expect(requests.first?.header("Last-Event-ID") == nil)
      #expect(requests.last?.header("Last-Event-ID") == "42")
    }
    await server.stop()
  }

  @Test(arguments: TransportKind.allCases)
  func aResponseThatIsNotAnEventStreamStopsWithATypedError(_ kind: TransportKind) async throws {
    let server = try await ScriptedServer.start { connection in
      guard try await connection.readRequest() != nil else { return }
      try await connection.respond(200, reason: "OK", headers: [("Content-Type", "application/json")], body: "{}")
    }
    try await withTransport(kind) { transport in
      let client = APIClient(configuration: .init(baseURL: server.baseURL, transport: transport))
      let error = await #expect(throws: CourierError.self) {
        for try await _ in client.events(Endpoint<Data>.get("/feed"), clock: TestCallClock()) {}
      }
      #expect(error?.kind == .decoding)
      #expect(error?.detail.contains("application/json") == true)
      #expect(error?.status == .ok)
      #expect(server.requests.count == 1, "never reconnected")
    }
    await server.stop()
  }

  @Test(arguments: TransportKind.allCases)
  func aBadEventNamesItsLine(_ kind: TransportKind) async throws {
    let server = try await ScriptedServer.start { connection in
      guard try await connection.readRequest() != nil else { return }
      try await connection.write(
        Self.streamHead + #": hello\#n\#ndata: {"index":0,"text":"a"}\#n\#nevent: tick\#ndata: {"index":\#n\#n"#)
      await connection.close()
    }
    try await withTransport(kind) { transport in
      let client = APIClient(configuration: .init(baseURL: server.baseURL, transport: transport))
      var received: [Tick] = []
      let error = await #expect(throws: CourierError.self) {
        for try await tick in client.events(Endpoint<Data>.get("/feed"), of: Tick.self) { received.append(tick) }
      }
      #expect(received == [Tick(index: 0, text: "a")])
      #expect(error?.kind == .decoding)
      #expect(error?.detail.contains("line 5") == true, "\(String(describing: error?.detail))")
    }
    await server.stop()
  }

  @Test(arguments: TransportKind.allCases)
  func givesUpAfterTheReconnectionsRunOut(_ kind: TransportKind) async throws {
    let server = try await ScriptedServer.start { connection in
      guard try await connection.readRequest() != nil else { return }
      try await connection.write(Self.streamHead + ": nothing to say\n\n")
      await connection.close()
    }
    try await withTransport(kind) { transport in
      let client = APIClient(configuration: .init(baseURL: server.baseURL, transport: transport))
      let clock = TestCallClock()
      let events = client.events(Endpoint<Data>.get("/feed"), reconnectDelay: 2, maxReconnections: 2, clock: clock)
      var count = 0
      for try await _ in events { count += 1 }
      #expect(count == 0)
      #expect(server.requests.count == 3, "the first connection and two reconnections")
      #expect(clock.sleeps == [2, 2], "reconnectDelay, as the server set none")
      let never = TestCallClock()
      for try await _ in client.events(Endpoint<Data>.get("/feed"), maxReconnections: 0, clock: never) { count += 1 }
      #expect(server.requests.count == 4, "maxReconnections 0 never reconnects")
      #expect(never.sleeps.isEmpty)
    }
    await server.stop()
  }

  @Test(arguments: TransportKind.allCases)
  func anUnreachableServerThrowsTheLastFailure(_ kind: TransportKind) async throws {
    let closed = try ClosedPort()
    try await withTransport(kind) { transport in
      let client = APIClient(configuration: .init(baseURL: closed.baseURL, transport: transport))
      let clock = TestCallClock()
      let error = await #expect(throws: CourierError.self) {
        for try await _ in client.events(Endpoint<Data>.get("/feed"), maxReconnections: 1, clock: clock) {}
      }
      #expect(error?.kind == .noConnection)
      #expect(clock.sleeps == [3])
    }
  }

  @Test(arguments: TransportKind.allCases)
  func cancellingTheIterationClosesTheConnection(_ kind: TransportKind) async throws {
    let closed = Locked(false)
    let server = try await ScriptedServer.start { connection in
      guard try await connection.readRequest() != nil else { return }
      try await connection.write(Self.streamHead + "data: first\n\n")
      while try await connection.read() != nil {}
      closed.withLock { $0 = true }
    }
    try await withTransport(kind) { transport in
      let client = APIClient(configuration: .init(baseURL: server.baseURL, transport: transport))
      let first = AsyncStream<String>.makeStream()
      let reader = Task {
        for try await event in client.events(Endpoint<Data>.get("/feed")) { first.continuation.yield(event.data) }
      }
      var received = first.stream.makeAsyncIterator()
      #expect(await received.next() == "first")
      reader.cancel()
      // Cancelled while waiting for an event, the stream throws `.cancelled`; cancelled between two `next()` calls, it
      // ends (an AsyncThrowingStream's rule). Either way the connection closes and nothing reconnects.
      if case .failure(let error) = await reader.result {
        #expect((error as? CourierError)?.isCancellation == true, "\(error)")
      }
      let started = ContinuousClock.now
      while !closed.withLock({ $0 }), ContinuousClock.now - started < .seconds(20) {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(closed.withLock { $0 }, "the server saw the connection close")
      #expect(server.requests.count == 1, "no reconnection after a cancellation")
    }
    await server.stop()
  }
}
