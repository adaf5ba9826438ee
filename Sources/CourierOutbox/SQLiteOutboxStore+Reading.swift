#if SQLiteOutbox
import Foundation
import GRDB
import HTTPTypes

// What the outbox reads from its SQLite store: the lanes' first items, requests, results and totals.
extension SQLiteOutboxStore {
  package func laneHeads(excluding busyLanes: Set<String>) async throws -> [Candidate] {
    try await read { db in
      // Read through a cursor, a busy lane's row skipped before it is decoded.
      var heads: [Candidate] = []
      let rows = try Row.fetchCursor(db.cachedStatement(sql: Self.laneHeadsQuery))
      while let row = try rows.next() {
        guard !busyLanes.contains(row[1]) else { continue }
        heads.append(try Self.candidate(row))
      }
      return heads
    }
  }

  /// The first waiting item of every lane that is not paused, with its dependency's state; the statement is built once,
  /// as a drain asks it at every turn's end (compiling it cost more than running it).
  private static let laneHeadsQuery = """
    SELECT \(itemColumnsOfI), d.state FROM courier_outbox_lane l
    JOIN courier_outbox_item i ON i.id = (
      SELECT id FROM courier_outbox_item WHERE lane = l.name AND state IN ('pending', 'sending')
      ORDER BY id LIMIT 1)
    LEFT JOIN courier_outbox_item d ON d.id = i.after_id
    WHERE l.paused_reason IS NULL
    ORDER BY i.id
    """

  package func laneHead(_ lane: String) async throws -> Candidate? {
    try await read { db in try Self.laneHead(lane, in: db) }
  }

  /// A lane's first waiting item with its dependency's state, unless the lane is paused; the statement is built once,
  /// as a drain asks it after every delivery.
  private static let laneHeadQuery = """
    SELECT \(itemColumnsOfI), d.state FROM courier_outbox_item i
    LEFT JOIN courier_outbox_item d ON d.id = i.after_id
    WHERE i.id = (
      SELECT id FROM courier_outbox_item WHERE lane = ? AND state IN ('pending', 'sending') ORDER BY id LIMIT 1)
    AND NOT EXISTS (SELECT 1 FROM courier_outbox_lane WHERE name = ? AND paused_reason IS NOT NULL)
    """

  static func laneHead(_ lane: String, in db: Database) throws -> Candidate? {
    try Row.fetchOne(db.cachedStatement(sql: laneHeadQuery), arguments: [lane, lane]).map(candidate)
  }

  package func result(for id: OutboxItem.ID) async throws -> OutboxResult? {
    try await read { db in
      guard
        let row = try Row.fetchOne(
          db,
          sql: "SELECT \(Self.itemColumns), response_headers, response_body FROM courier_outbox_item "
            + "WHERE id = ? AND state IN ('delivered', 'deadLetter')",
          arguments: [id.rawValue])
      else { return nil }
      let item = try Self.item(row)
      let response = try item.responseStatus.map { status in
        HTTPResponse(status: status, headerFields: try FieldCoding.decode(row["response_headers"]))
      }
      return OutboxResult(item: item, response: response, body: row["response_body"] ?? Data())
    }
  }

  package func unhandledResults(ofKind kind: String) async throws -> [OutboxItem.ID] {
    try await read { db in
      try Int64.fetchAll(
        db, sql: "SELECT id FROM courier_outbox_item WHERE kind = ? AND result_handled = 0 ORDER BY id",
        arguments: [kind]
      ).map(OutboxItem.ID.init(rawValue:))
    }
  }

  package func items(in states: Set<OutboxItem.State>?) async throws -> [OutboxItem] {
    try await read { db in
      let rows: [Row]
      if let states {
        let values = states.map(\.rawValue)
        rows = try Row.fetchAll(
          db,
          sql:
            "SELECT \(Self.itemColumns) FROM courier_outbox_item WHERE state IN (\(databaseQuestionMarks(count: values.count))) "
            + "ORDER BY id", arguments: StatementArguments(values))
      } else {
        rows = try Row.fetchAll(db, sql: "SELECT \(Self.itemColumns) FROM courier_outbox_item ORDER BY id")
      }
      return try rows.map(Self.item)
    }
  }

  // The totals that the triggers of courier_outbox_totals keep (migration courier-outbox-4).
  package func waitingCount() async throws -> Int {
    try await read { db in
      try Int.fetchOne(db.cachedStatement(sql: "SELECT waiting FROM courier_outbox_totals WHERE id = 1")) ?? 0
    }
  }

  package func waitingBytes() async throws -> Int {
    try await read { db in
      try Int.fetchOne(db.cachedStatement(sql: "SELECT bytes FROM courier_outbox_totals WHERE id = 1")) ?? 0
    }
  }

}
#endif
