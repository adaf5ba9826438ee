import Courier
import CourierOutbox
import CourierTestSupport
import CourierTesting
import Foundation
import PostgresNIO
import Testing

@testable import CourierOutboxPostgres

/// A worker claims the first items of the lanes it starts in one round trip (one transaction), each under its lane's
/// lease: a lane another worker holds, or is claiming at that moment, is left to it, not waited for.
@Suite(.hangGuard) struct PostgresClaimTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func theLanesAPassStartsAreClaimedInOneTransaction() async throws {
    let table = "claims_together"
    try await withPostgres { server, postgres in
      let transport = StubTransport(.post("/hooks").reply(.status(.created)))
      let network = SwitchedNetwork(NetworkPath(isOnline: false))
      let outbox = try await stubOutbox(server, table, transport, network)
      for lane in ["a", "b", "c", "d"] {
        _ = try await outbox.enqueue(Endpoint<Data>.post("/hooks", body: FleetPost(title: lane)), lane: lane)
      }
      // Each claim's transaction, as PostgreSQL numbers it.
      try await logTransactions(
        of: table, into: "\(table)_claimed", when: "NEW.state = 'sending' AND OLD.state = 'pending'", on: postgres)
      network.set(NetworkPath(isOnline: true))
      try await outbox.waitUntilDrained()
      await outbox.stop()
      #expect(transport.requests.count == 4)
      for try await (claims, transactions) in try await postgres.query(
        "SELECT COUNT(*), COUNT(DISTINCT tx) FROM \(unescaped: table)_claimed", logger: logger
      ).decode((Int64, Int64).self) {
        #expect(claims == 4)
        #expect(transactions == 1, "the four lanes' first items were claimed in \(transactions) transactions")
      }
    }
  }

  @Test func aClaimLeavesTheLanesAnotherWorkerHoldsOrIsClaiming() async throws {
    try await withPostgres { server, postgres in
      let api = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!)
      let options = testOptions("claims_held", lease: .seconds(600))
      let first = try #require(
        try await Outbox(client: api, postgres: server.configuration(), options: options).store as? PostgresOutboxStore)
      let second = try #require(
        try await Outbox(client: api, postgres: server.configuration(), options: options).store as? PostgresOutboxStore)
      var ids: [OutboxItem.ID] = []
      for lane in ["a", "b", "c", "d"] {
        let request = StoredRequest(
          method: .post, target: "/posts", headerFields: [:], body: Data("{}".utf8), bodyDigest: "d",
          idempotencyKey: "k-\(lane)")
        ids.append(
          try await first.insert(
            NewItem(
              request: request, lane: lane, kind: "request", kindVersion: 1, constraints: .none, enqueuedAt: Date())))
      }
      _ = try await first.markSending(ids[0])
      // Lane c's row is locked by a transaction under way (another worker claiming it), and so is lane d's first item
      // (a service's transaction that enqueued a dependant binding values from its answer): the claim skips both at
      // once.
      let claimed = try await postgres.withTransaction(logger: logger) { connection in
        try await connection.query("SELECT 1 FROM claims_held_lane WHERE name = 'c' FOR UPDATE", logger: logger)
        try await connection.query("SELECT 1 FROM claims_held_item WHERE lane = 'd' FOR SHARE", logger: logger)
        return try await second.claimHeads(ids)
      }
      #expect(claimed.map(\.item.id) == [ids[1]])
      #expect(claimed.first?.request.idempotencyKey == "k-b")
      let items = try await second.items(in: nil)
      #expect(items.map(\.state) == [.sending, .sending, .pending, .pending])
      #expect(items.map(\.attempts) == [1, 1, 0, 0])
      // Once free, lanes c and d are the second worker's; lane a is still the first's.
      #expect(try await second.claimHeads([ids[0], ids[2], ids[3]]).map(\.item.id) == [ids[2], ids[3]])
    }
  }
}
