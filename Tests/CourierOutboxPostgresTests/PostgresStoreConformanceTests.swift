import Courier
import CourierOutbox
import CourierOutboxConformance
import CourierTestSupport
import Foundation
import Testing

@testable import CourierOutboxPostgres

/// The store conformance cases on the PostgreSQL store, each on tables of its own in one server.
@Suite(.hangGuard) struct PostgresStoreConformanceTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func thePostgreSQLStorePassesEveryCase() async throws {
    try await withPostgres { server, _ in
      for (index, check) in OutboxStoreConformance.allCases.enumerated() {
        let table = "conformance_\(index)"
        let store = OutboxStoreUnderTest(
          open: { client, configuration in
            try await Outbox(
              client: client, postgres: server.configuration(), options: testOptions(table),
              configuration: configuration)
          },
          openDying: { client, configuration in
            // The lease of a worker about to die is the shortest there is: the next worker takes its lanes soon.
            try await Outbox(
              client: client, postgres: server.configuration(), options: testOptions(table, lease: .zero),
              configuration: configuration)
          })
        do {
          try await check.check(on: store)
        } catch {
          Issue.record(error, "\(check)")
        }
      }
    }
  }
}
