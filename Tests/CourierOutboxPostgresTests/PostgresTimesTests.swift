import Courier
import CourierAsyncHTTPClient
import CourierOutbox
import CourierTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import CourierOutboxPostgres

/// The items' times are `timestamptz`, read as `Date`: tables of version 1, which kept them as seconds in
/// `DOUBLE PRECISION`, are migrated with their values, and times `timestamptz` cannot hold are written as the outbox
/// means them.
@Suite(.hangGuard) struct PostgresTimesTests {
  /// The type of each of the items' time columns.
  static func types(_ table: String, _ postgres: PostgresClient) async throws -> Set<String> {
    var types: Set<String> = []
    for try await type in try await postgres.query(
      """
      SELECT data_type FROM information_schema.columns
      WHERE table_name = \(table) AND column_name = ANY(\(PostgresOutboxSchema.times.map(\.0)))
      """, logger: logger
    ).decode(String.self) {
      types.insert(type)
    }
    return types
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func tablesOfVersionOneAreMigratedWithTheirTimesAndDeliver() async throws {
    try await withPostgres { server, postgres in
      let offline = try await offlineOutbox(server, "legacy")
      let first = try await offline.enqueue(Endpoint<Data>.post("/posts", body: FleetPost(title: "one")), lane: "a")
      let second = try await offline.enqueue(Endpoint<Data>.post("/posts", body: FleetPost(title: "two")), lane: "a")
      await offline.stop()
      #expect(try await Self.types("legacy_item", postgres) == ["timestamp with time zone"])
      // A time with a fraction of a second, recent enough that the item has not expired.
      let enqueuedAt = Date().timeIntervalSince1970.rounded(.down) + 0.25
      // The tables as version 1 left them: seconds since 1970, a NaN for a time never set, its delivery function.
      let columns = PostgresOutboxSchema.times.map { column, _ in
        "ALTER COLUMN \(column) TYPE DOUBLE PRECISION USING extract(epoch FROM \(column))::double precision"
      }
      for statement in [
        "ALTER TABLE legacy_item " + columns.joined(separator: ", "),
        "UPDATE legacy_item SET enqueued_at = \(enqueuedAt), not_before = 'NaN' WHERE id = \(first.rawValue)",
        "DELETE FROM legacy_version WHERE version > 1",
        "DROP FUNCTION \(try PostgresOutboxNames(schema: "public", table: "legacy").recordDeliveries)",
        "CREATE FUNCTION legacy_record_delivery_3(at DOUBLE PRECISION) RETURNS void LANGUAGE sql AS ''",
      ] {
        try await postgres.query(PostgresQuery(unsafeSQL: statement), logger: logger)
      }
      #expect(try await Self.types("legacy_item", postgres) == ["double precision"])

      try await withDemoServer { baseURL in
        let client = APIClient(baseURL: baseURL) { $0.transport = AsyncHTTPClientTransport() }
        let outbox = try await Outbox(
          client: client, postgres: server.configuration(), options: testOptions("legacy"),
          configuration: fastConfiguration())
        #expect(try await Self.types("legacy_item", postgres) == ["timestamp with time zone"])
        var versions: [Int] = []
        for try await version in try await postgres.query(
          "SELECT version FROM legacy_version ORDER BY version", logger: logger
        ).decode(Int.self) {
          versions.append(version)
        }
        #expect(versions == [1, 2])
        var legacyFunction = true
        for try await exists in try await postgres.query(
          "SELECT to_regproc('legacy_record_delivery_3') IS NOT NULL", logger: logger
        ).decode(Bool.self) {
          legacyFunction = exists
        }
        #expect(!legacyFunction, "version 1's delivery function, which writes seconds, is dropped")
        try await outbox.waitUntilDrained()
        let items = try await outbox.items()
        #expect(items.map(\.id) == [first, second])
        #expect(items.map(\.state) == [.delivered, .delivered])
        #expect(items.first?.enqueuedAt == Date(timeIntervalSince1970: enqueuedAt))
        await outbox.stop()
      }
    }
  }

  /// A NaN is no time (it is before and after no moment, as the outbox compares times), and a time beyond the years
  /// `timestamptz` holds is written as the nearest it holds: nothing the outbox is given fails to be written or stops
  /// the process.
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func timesTimestamptzCannotHoldAreWrittenAsTheOutboxMeansThem() async throws {
    try await withPostgres { server, postgres in
      let offline = try await offlineOutbox(server, "extreme")
      let never = OutboxConstraints(
        notBefore: Date(timeIntervalSince1970: .infinity), giveUpAfter: Date(timeIntervalSince1970: .nan))
      let past = OutboxConstraints(
        notBefore: Date(timeIntervalSince1970: -.infinity), giveUpAfter: Date(timeIntervalSince1970: 1e300))
      let single = try await offline.enqueue(
        Endpoint<Data>.post("/posts", body: FleetPost(title: "never")), lane: "a", constraints: never)
      let batch = try await offline.enqueue(
        contentsOf: [
          Endpoint<Data>.post("/posts", body: FleetPost(title: "past 1")),
          Endpoint<Data>.post("/posts", body: FleetPost(title: "past 2")),
        ], lane: "b", constraints: past)
      var times: [Int64: (Date?, Date?)] = [:]
      for try await (id, notBefore, giveUpAfter) in try await postgres.query(
        "SELECT id, not_before, give_up_after FROM extreme_item", logger: logger
      ).decode((Int64, Date?, Date?).self) {
        times[id] = (notBefore, giveUpAfter)
      }
      #expect(times[single.rawValue]?.0 == .distantFuture)
      #expect(times[single.rawValue].map { $0.1 == nil } == true)
      for id in batch {
        #expect(times[id.rawValue]?.0 == .distantPast)
        #expect(times[id.rawValue]?.1 == .distantFuture)
      }
      await offline.stop()
    }
  }
}
