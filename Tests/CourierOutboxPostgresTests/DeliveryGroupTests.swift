import Courier
import CourierOutbox
import CourierTestSupport
import Foundation
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import Testing

@testable import CourierOutboxPostgres

/// Deliveries that finish while another is recorded are recorded together, in one call, each under its own lane's
/// lease.
@Suite(.hangGuard) struct DeliveryGroupTests {
  static func delivery(_ id: Int64, lane: String = "a") -> GroupedDelivery {
    GroupedDelivery(
      id: OutboxItem.ID(rawValue: id), lane: lane,
      response: RecordedResponse(status: .created, headerFields: [:], body: Data()), date: Date())
  }

  /// A row that says which delivery it answers, in `hasDependants`' place: the first of the group's.
  static func rows(_ group: [GroupedDelivery]) -> [DeliveryRow] {
    group.map { DeliveryRow(recorded: $0.id.rawValue % 2 == 1, hasDependants: false, needsTransaction: false) }
  }

  /// One call at a time: the deliveries that come while the first is recorded wait for it, then go together in the
  /// next call, each told what became of its own delivery.
  @Test func deliveriesThatComeWhileOneIsRecordedGoTogetherInTheNextCall() async throws {
    let groups = DeliveryGroups()
    let calls = NIOLockedValueBox<[[Int64]]>([])
    let (gate, opening) = AsyncStream.makeStream(of: Void.self)
    let call: @Sendable ([GroupedDelivery]) async throws -> [DeliveryRow] = { group in
      let first = calls.withLockedValue { calls in
        calls.append(group.map(\.id.rawValue))
        return calls.count == 1
      }
      // The first call waits until the test opens the gate.
      if first { for await _ in gate { break } }
      return Self.rows(group)
    }
    async let one = groups.record(Self.delivery(1), by: call)
    try await waitUntil("the first call began") { calls.withLockedValue { $0.count } == 1 }
    async let two = groups.record(Self.delivery(2), by: call)
    async let three = groups.record(Self.delivery(3), by: call)
    try await waitUntil("two deliveries wait") { groups.waitingCount == 2 }
    opening.yield()
    let (first, second, third) = try await (one, two, three)
    #expect(first.recorded && !second.recorded && third.recorded, "each is told of its own delivery")
    let made = calls.withLockedValue { $0 }
    #expect(made.count == 2)
    #expect(made.first == [1])
    #expect(made.last.map { Set($0) } == [2, 3], "the two that waited went in one call")
    #expect(groups.waitingCount == 0)
  }

  /// A call that fails fails every delivery of its group (each is sent again, with its key), and the next group is
  /// still recorded.
  @Test func aFailedCallFailsItsGroupAndTheNextGroupStillGoes() async throws {
    struct Lost: Error {}
    let groups = DeliveryGroups()
    let calls = NIOLockedValueBox(0)
    let (gate, opening) = AsyncStream.makeStream(of: Void.self)
    let call: @Sendable ([GroupedDelivery]) async throws -> [DeliveryRow] = { group in
      let number = calls.withLockedValue { calls in
        calls += 1
        return calls
      }
      if number == 1 { for await _ in gate { break } }
      if number == 2 { throw Lost() }
      return Self.rows(group)
    }
    async let one = groups.record(Self.delivery(1), by: call)
    try await waitUntil("the first call began") { calls.withLockedValue { $0 } == 1 }
    let two = Task { try await groups.record(Self.delivery(3), by: call) }
    let three = Task { try await groups.record(Self.delivery(5), by: call) }
    try await waitUntil("two deliveries wait") { groups.waitingCount == 2 }
    opening.yield()
    #expect(try await one.recorded)
    await #expect(throws: Lost.self) { try await two.value }
    await #expect(throws: Lost.self) { try await three.value }
    #expect(try await groups.record(Self.delivery(7), by: call).recorded, "the next call is made")
  }

  /// The function for a group records each delivery under its own lane's lease and claims each lane's next item: a
  /// lane another worker took is left as it was, and the others are recorded all the same.
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aGroupIsRecordedEachUnderItsOwnLanesLease() async throws {
    try await withPostgres { server, postgres in
      let outbox = try await offlineOutbox(server, "grouped")
      let store = try #require(outbox.store as? PostgresOutboxStore)
      var first: [String: OutboxItem.ID] = [:]
      var second: [String: OutboxItem.ID] = [:]
      for lane in ["c", "a", "b"] {
        first[lane] = try await outbox.enqueue(Endpoint<Data>.post("/\(lane)/1"), lane: lane)
        second[lane] = try await outbox.enqueue(Endpoint<Data>.post("/\(lane)/2"), lane: lane)
        _ = try await store.markSending(first[lane]!)
      }
      try await postgres.query(
        "UPDATE grouped_lane SET holder = 'another', lease_until = now() + interval '1 hour' WHERE name = 'b'",
        logger: Logger(label: "test"))
      let response = RecordedResponse(status: .created, headerFields: [.location: "/made"], body: Data("{}".utf8))
      let group = ["c", "b", "a"].map {
        GroupedDelivery(id: first[$0]!, lane: $0, response: response, date: Date())
      }
      let rows = try await store.client.withConnection { connection in
        try await store.recordDeliveries(group, on: connection)
      }
      #expect(rows.map(\.recorded) == [true, false, true], "in the group's order; b's lease is another worker's")
      #expect(rows.map { $0.head?.claim.item.id } == [second["c"], nil, second["a"]])
      #expect(rows[0].head?.claim.request.target == "/c/2")
      let items = Dictionary(uniqueKeysWithValues: try await outbox.items().map { ($0.id, $0) })
      #expect(items[first["a"]!]?.state == .delivered)
      #expect(items[first["c"]!]?.state == .delivered)
      #expect(items[first["b"]!]?.state == .sending, "not recorded without the lease")
      #expect(items[second["a"]!]?.state == .sending)
      #expect(items[second["b"]!]?.state == .pending)
      let result = try #require(try await store.result(for: first["c"]!))
      #expect(result.response?.headerFields[.location] == "/made")
      await outbox.stop()
    }
  }
}
