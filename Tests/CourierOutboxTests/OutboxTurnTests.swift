import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import GRDB
import Testing

@testable import CourierOutbox

/// A lane's turns in the SQLite store, whose claims hold until the lane is given back.
@Suite(.hangGuard) struct OutboxTurnTests {
  /// A lane that no other lane waits for does not give its place back at its turn's end: the record of a turn's last
  /// run claims the next turn's items, one transaction for a turn.
  @Test func aLaneAloneRecordsATurnAndClaimsTheNextInOneTransaction() async throws {
    let (folder, path) = try temporaryDatabase(named: "app.sqlite")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Write transactions (reads begin deferred).
    let writes = Locked(0)
    var databaseConfiguration = GRDB.Configuration()
    databaseConfiguration.prepareDatabase { db in
      db.trace(options: .statement) { event in
        if case .statement(let statement) = event, statement.sql.hasPrefix("BEGIN IMMEDIATE") {
          writes.withLock { $0 += 1 }
        }
      }
    }
    let database = try DatabaseQueue(path: path, configuration: databaseConfiguration)
    let network = SwitchedNetwork(NetworkPath(isOnline: false))
    var configuration = Outbox.Configuration()
    configuration.monitor = network.monitor
    configuration.clock = TestCallClock()
    configuration.observesAppLifecycle = false
    configuration.maxConcurrentLanes = 1
    let transport = StubTransport(.post("/v1/a").reply(.status(.created)))
    let client = APIClient.testing(baseURL: URL(string: "https://api.example.test/v1")!, transport: transport)
    let outbox = try Outbox(client: client, database: database, configuration: configuration)
    _ = try await outbox.enqueue(contentsOf: (0..<64).map { _ in Endpoint<Data>.post("/a") }, lane: "a")
    writes.withLock { $0 = 0 }
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    #expect(transport.requests.count == 64)
    #expect(try await outbox.items(in: [.delivered]).count == 64)
    // The first item's claim; its record with the claim of the turn's 31 others; their record with the claim of the
    // next turn's 32; and theirs. Given back at each turn's end, the lane would be claimed again each time.
    #expect(writes.withLock { $0 } == 4, "one transaction for each turn after the first item")
    await outbox.stop()
  }
}
