import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import GRDB
import Testing

@testable import CourierOutbox

/// The SQLite store's totals of what waits, kept by triggers (migration courier-outbox-4).
@Suite(.hangGuard) struct SQLiteTotalsTests {
  /// An outbox on `path`, offline, on a clock that stands still.
  static func offline(_ path: String) throws -> Outbox {
    var configuration = Outbox.Configuration()
    configuration.monitor = .constant(.offline)
    configuration.clock = TestCallClock()
    configuration.observesAppLifecycle = false
    let client = APIClient.testing(baseURL: URL(string: "https://api.example.test")!, transport: StubTransport())
    return try Outbox(client: client, path: path, configuration: configuration)
  }

  @Test func aDatabaseOfVersionThreeGetsTheTotalsOfTheItemsItHolds() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let outbox = try Self.offline(path)
    for length in [10, 200, 3_000] {
      try await outbox.enqueue(Endpoint<Data>.post("/posts").body(Data(repeating: 1, count: length)))
    }
    let cancelled = try await outbox.enqueue(Endpoint<Data>.post("/posts").body(Data(repeating: 2, count: 99)))
    try await outbox.cancel(cancelled)
    await outbox.stop()
    // The tables as version 3 left them: no totals, no triggers, the migration not applied.
    let database = try DatabaseQueue(path: path)
    try await database.write { db in
      try db.execute(
        sql: """
          DROP TRIGGER courier_outbox_totals_insert;
          DROP TRIGGER courier_outbox_totals_delete;
          DROP TRIGGER courier_outbox_totals_update;
          DROP TABLE courier_outbox_totals;
          DELETE FROM grdb_migrations WHERE identifier = 'courier-outbox-4';
          """)
    }
    try database.close()
    let reopened = try Self.offline(path)
    #expect(try await reopened.pendingCount() == 3)
    #expect(try await reopened.store.waitingBytes() == 3_210)
    // And kept from then on.
    try await reopened.enqueue(Endpoint<Data>.post("/posts").body(Data(repeating: 3, count: 5)))
    #expect(try await reopened.pendingCount() == 4)
    #expect(try await reopened.store.waitingBytes() == 3_215)
    await reopened.stop()
  }
}
