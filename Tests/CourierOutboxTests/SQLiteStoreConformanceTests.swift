import Courier
import CourierOutboxConformance
import CourierTestSupport
import Foundation
import GRDB
import Testing

@testable import CourierOutbox

/// The store conformance cases on the SQLite store: in a file of the outbox's own, and in the app's own database.
@Suite(.hangGuard) struct SQLiteStoreConformanceTests {
  @Test(arguments: OutboxStoreConformance.allCases)
  func theSQLiteStoreInItsOwnFilePasses(_ check: OutboxStoreConformance) async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    try await check.check(
      on: OutboxStoreUnderTest { client, configuration in
        try Outbox(client: client, path: path, configuration: configuration)
      })
  }

  @Test(arguments: OutboxStoreConformance.allCases)
  func theSQLiteStoreInTheAppsDatabasePasses(_ check: OutboxStoreConformance) async throws {
    let (folder, path) = try temporaryDatabase(named: "app.sqlite")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await check.check(
      on: OutboxStoreUnderTest { client, configuration in
        try Outbox(client: client, database: try DatabaseQueue(path: path), configuration: configuration)
      })
  }
}
