import Courier
import CourierOutbox
import CourierTestSupport
import CourierTesting
import Foundation
import PostgresNIO
import Testing

@testable import CourierOutboxPostgres

/// A worker sends a lane's items a run at a time and records a run's deliveries in one transaction, with the claim of
/// the next run — but sends no more of a run once a third of its lease has gone since the claim (the record renews
/// the lease): another worker takes a lane whose lease ended, and must not find this one still sending it.
@Suite(.hangGuard) struct PostgresRunTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aRunsDeliveriesAreRecordedInOneTransaction() async throws {
    // A lease of 90 s: a run's claim holds 30 s, far beyond any stall between two sends.
    let largest = try await largestRecord("runs_fast", lease: .seconds(90), answer: .status(.created))
    #expect(largest > 1, "each delivery was recorded in a transaction of its own")
    #expect(largest <= 8, "a run is 8 items at most")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func noMoreOfARunIsSentOnceAThirdOfTheLeaseWentBy() async throws {
    // A lease of 0.3 s holds a claim 0.1 s; each answer takes 0.15 s: past the first item of a run, the claim may
    // have lapsed, so every record holds one delivery.
    let largest = try await largestRecord(
      "runs_slow", lease: .milliseconds(300), answer: .status(.created).delayed(by: 0.15))
    #expect(largest == 1, "items of a run were sent after a third of the lease went by since its claim")
  }

  /// The most deliveries one transaction recorded while one worker delivered 20 items of one lane, each answered with
  /// `answer`.
  @available(macOS 14, iOS 17, tvOS 17, *)
  func largestRecord(_ table: String, lease: Duration, answer: StubResponse) async throws -> Int {
    var largest = -1
    try await withPostgres { server, postgres in
      let transport = StubTransport(.post("/hooks").reply(answer))
      let network = SwitchedNetwork(NetworkPath(isOnline: false))
      let outbox = try await stubOutbox(server, table, transport, network, lease: lease)
      _ = try await outbox.enqueue(
        contentsOf: (0..<20).map { Endpoint<Data>.post("/hooks", body: FleetPost(title: "\($0)")) }, lane: "a")
      // Each delivery's transaction, as PostgreSQL numbers it.
      try await logTransactions(
        of: table, into: "\(table)_delivered", when: "NEW.state = 'delivered' AND OLD.state <> 'delivered'",
        on: postgres)
      network.set(NetworkPath(isOnline: true))
      try await outbox.waitUntilDrained()
      await outbox.stop()
      #expect(transport.requests.count == 20)
      let items = try await outbox.items()
      #expect(items.allSatisfy { $0.state == .delivered && $0.attempts == 1 })
      for try await (count, most) in try await postgres.query(
        "SELECT COUNT(*), MAX(n) FROM (SELECT COUNT(*) AS n FROM \(unescaped: table)_delivered GROUP BY tx) AS t",
        logger: logger
      ).decode((Int64, Int64?).self) {
        #expect(count > 0)
        largest = Int(most ?? 0)
      }
    }
    return largest
  }
}

/// Makes PostgreSQL write, into a new table `log` (`id`, `tx`), each item of the outbox's `table` whose update meets
/// `condition` (over `OLD` and `NEW`), with the number of the transaction that made it.
func logTransactions(
  of table: String, into log: String, when condition: String, on postgres: PostgresClient
)
  async throws
{
  for statement in [
    "CREATE TABLE \(log) (id BIGINT, tx BIGINT)",
    """
    CREATE FUNCTION \(log)_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF \(condition) THEN
        INSERT INTO \(log) VALUES (NEW.id, txid_current());
      END IF;
      RETURN NEW;
    END $$
    """,
    "CREATE TRIGGER \(log)_write AFTER UPDATE ON \(table)_item FOR EACH ROW EXECUTE FUNCTION \(log)_write()",
  ] {
    try await postgres.query(PostgresQuery(unsafeSQL: statement), logger: logger)
  }
}
