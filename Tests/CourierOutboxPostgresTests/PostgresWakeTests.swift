import Courier
import CourierOutbox
import CourierTestSupport
import CourierTesting
import Foundation
import PostgresNIO
import Testing

@testable import CourierOutboxPostgres

/// Which of a worker's lanes given back wake the fleet's other workers (a `NOTIFY` each, after which every worker
/// looks at the lanes' first items): a lane given back only for the other lanes' turn does not — the worker looks
/// itself — unless the worker then leaves a lane it cannot take.
@Suite(.hangGuard) struct PostgresWakeTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aLaneGivenBackAtTheEndOfItsTurnWakesNoOtherWorker() async throws {
    // 70 items: two turns of 32 end with the lane given back and taken again by the same worker, which woke no one;
    // the lane given back once empty wakes the others, as before.
    let (count, sent) = try await notifications("turn_one", lanes: ["a"], itemsEach: 70)
    #expect(sent == 70)
    #expect(count == 1, "a lane given back at the end of its turn woke the other workers")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aLaneLeftForOthersAtTheEndOfATurnWakesThem() async throws {
    // One lane at a time, two lanes of 40: after each of the two turns the worker takes the other lane and leaves
    // the one whose turn ended, which wakes the others; each lane given back once empty wakes them too.
    let (count, sent) = try await notifications("turn_two", lanes: ["a", "b"], itemsEach: 40)
    #expect(sent == 80)
    #expect(count == 4, "a lane left at the end of a turn must wake the workers that may take it")
  }

  /// The `NOTIFY`s on the outbox's channel while one worker, sending one lane at a time, delivers `itemsEach` items
  /// in each of `lanes` (enqueued before), until it holds no lane; and the requests it sent.
  @available(macOS 14, iOS 17, tvOS 17, *)
  func notifications(_ table: String, lanes: [String], itemsEach: Int) async throws -> (count: Int, sent: Int) {
    var result = (count: -1, sent: -1)
    try await withPostgres { server, postgres in
      let transport = StubTransport(.post("/hooks").reply(.status(.created)))
      let network = SwitchedNetwork(NetworkPath(isOnline: false))
      let outbox = try await stubOutbox(server, table, transport, network) { $0.maxConcurrentLanes = 1 }
      for lane in lanes {
        _ = try await outbox.enqueue(
          contentsOf: (0..<itemsEach).map { Endpoint<Data>.post("/hooks", body: FleetPost(title: "\(lane)\($0)")) },
          lane: lane)
      }
      let names = try PostgresOutboxNames(schema: "public", table: table)
      let heard = Locked((count: 0, probed: false))
      // A connection of the test's own listens: the outbox's notifications are counted until the test's "end".
      let listener = Task {
        try await postgres.withConnection { connection in
          try await connection.listen(on: names.channel) { notifications in
            for try await notification in notifications {
              switch notification.payload {
              case "end": return
              case "probe": heard.withLock { $0.probed = true }
              default: heard.withLock { $0.count += 1 }
              }
            }
          }
        }
      }
      try await waitUntil("the test's connection listens") {
        try await postgres.query("SELECT pg_notify(\(names.channel), 'probe')", logger: logger)
        return heard.withLock { $0.probed }
      }
      network.set(NetworkPath(isOnline: true))
      try await outbox.waitUntilDrained()
      // Its last lane is given back after the last delivery is recorded.
      try await waitUntil("the worker holds no lane") {
        let held = try await postgres.query(
          "SELECT COUNT(*) FROM \(unescaped: names.lane) WHERE holder IS NOT NULL", logger: logger)
        for try await count in held.decode(Int64.self) { return count == 0 }
        return false
      }
      await outbox.stop()
      // Notifications come in the order their transactions committed: every one of the outbox's is in before "end".
      try await postgres.query("SELECT pg_notify(\(names.channel), 'end')", logger: logger)
      try await listener.value
      result = (heard.withLock { $0.count }, transport.requests.count)
    }
    return result
  }
}
