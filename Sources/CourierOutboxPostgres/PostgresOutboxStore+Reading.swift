import CourierOutbox
import Foundation
import HTTPTypes
import PostgresNIO

// What the outbox reads from its PostgreSQL store: the lanes' first items, results and totals, and how rows become
// the outbox's types.
extension PostgresOutboxStore {
  package func laneHeads(excluding busyLanes: Set<String>) async throws -> [Candidate] {
    // The lanes with waiting items are found by skipping through the waiting items' index from one lane to the next
    // (one index descent a lane), not by reading every lane row: a service may use a lane per order, and lanes stay.
    // Lanes another worker holds are left out; each worker walks the free lanes in an order of its own, so that the
    // workers of a fleet do not all reach for the same lanes first.
    let query: PostgresQuery = """
      WITH RECURSIVE heads (lane, id) AS (
        (SELECT lane, id FROM \(unescaped: names.item) WHERE state IN ('pending', 'sending') ORDER BY lane, id LIMIT 1)
        UNION ALL
        SELECT next.lane, next.id FROM heads, LATERAL (
          SELECT lane, id FROM \(unescaped: names.item)
          WHERE state IN ('pending', 'sending') AND lane > heads.lane ORDER BY lane, id LIMIT 1) next)
      SELECT \(unescaped: Self.itemColumnsOfI), d.state FROM heads
      JOIN \(unescaped: names.item) i ON i.id = heads.id
      JOIN \(unescaped: names.lane) l ON l.name = heads.lane
      LEFT JOIN \(unescaped: names.item) d ON d.id = i.after_id
      WHERE l.paused_reason IS NULL
        AND (l.holder IS NULL OR l.holder = \(worker) OR l.lease_until < clock_timestamp())
      ORDER BY md5(l.name || \(worker))
      """
    return try await run { connection in
      var candidates: [Candidate] = []
      for try await row in try await connection.checkedQuery(query, logger: self.logger) {
        let columns = row.makeRandomAccess()
        let candidate = try Self.candidate(columns)
        if !busyLanes.contains(candidate.item.lane) { candidates.append(candidate) }
      }
      return candidates
    }
  }

  package func laneHead(_ lane: String) async throws -> Candidate? {
    try await run { connection in try await self.laneHead(lane, on: connection) }
  }

  /// A lane's first waiting item with its dependency's state, unless the lane is paused.
  ///
  /// The first item is the first entry of the waiting items' index, `ORDER BY id LIMIT 1`: PostgreSQL may read
  /// `min(id)` by aggregating every waiting entry of the lane, and a lane's backlog then makes each delivery read it
  /// whole (0.48 ms for 225 waiting items, against 0.09 ms for the first; Benchmarks/AB.md).
  func laneHead(_ lane: String, on connection: PostgresConnection) async throws -> Candidate? {
    let rows = try await connection.checkedQuery(
      """
      SELECT \(unescaped: Self.itemColumnsOfI), d.state FROM \(unescaped: names.item) i
      LEFT JOIN \(unescaped: names.item) d ON d.id = i.after_id
      WHERE i.id = (SELECT id FROM \(unescaped: names.item)
          WHERE lane = \(lane) AND state IN ('pending', 'sending') ORDER BY id LIMIT 1)
        AND NOT EXISTS (SELECT 1 FROM \(unescaped: names.lane) WHERE name = \(lane) AND paused_reason IS NOT NULL)
      """, logger: logger)
    for try await row in rows { return try Self.candidate(row.makeRandomAccess()) }
    return nil
  }

  package func result(for id: OutboxItem.ID) async throws -> OutboxResult? {
    try await run { connection in
      let rows = try await connection.checkedQuery(
        """
        SELECT \(unescaped: Self.itemColumns), response_headers, response_body FROM \(unescaped: self.names.item)
        WHERE id = \(id.rawValue) AND state IN ('delivered', 'deadLetter')
        """, logger: self.logger)
      for try await row in rows {
        let columns = row.makeRandomAccess()
        let item = try Self.item(columns)
        let headers = try columns[Self.columnCount].decode(Data?.self)
        let body = try columns[Self.columnCount + 1].decode(Data?.self)
        let response = try item.responseStatus.map { status in
          HTTPResponse(status: status, headerFields: try FieldCoding.decode(headers))
        }
        return OutboxResult(item: item, response: response, body: body ?? Data())
      }
      return nil
    }
  }

  package func unhandledResults(ofKind kind: String) async throws -> [OutboxItem.ID] {
    try await run { connection in
      let rows = try await connection.checkedQuery(
        """
        SELECT id FROM \(unescaped: self.names.item) WHERE kind = \(kind) AND result_handled = false ORDER BY id
        """, logger: self.logger)
      var ids: [OutboxItem.ID] = []
      for try await id in rows.decode(Int64.self) { ids.append(OutboxItem.ID(rawValue: id)) }
      return ids
    }
  }

  package func items(in states: Set<OutboxItem.State>?) async throws -> [OutboxItem] {
    let all = OutboxItem.State.allCases.map(\.rawValue)
    let wanted = states.map { $0.map(\.rawValue) } ?? all
    return try await items(
      """
      SELECT \(unescaped: Self.itemColumns) FROM \(unescaped: names.item) WHERE state = ANY(\(wanted)) ORDER BY id
      """)
  }

  package func waitingCount() async throws -> Int {
    try await total("SELECT COUNT(*) FROM \(unescaped: names.item) WHERE state IN ('pending', 'sending')")
  }

  package func waitingBytes() async throws -> Int {
    try await total(
      """
      SELECT COALESCE(SUM(body_length), 0)::bigint FROM \(unescaped: names.item)
      WHERE state IN ('pending', 'sending')
      """)
  }

  func total(_ query: PostgresQuery) async throws -> Int {
    try await run { connection in
      for try await value in try await connection.checkedQuery(query, logger: self.logger).decode(Int64.self) {
        return Int(value)
      }
      return 0
    }
  }

  // MARK: Rows

  private static let columnNames = [
    "id", "lane", "kind", "kind_version", "method", "target", "headers", "body_length", "idempotency_key", "after_id",
    "state", "attempts", "enqueued_at", "next_attempt_at", "response_status", "reason", "not_before", "give_up_after",
    "if_dependency_fails", "allows_expensive", "allows_constrained", "held_until", "handed_off_at",
  ]
  /// The columns ``item(_:)`` reads, in its order: rows are decoded by position.
  static let itemColumns = columnNames.joined(separator: ", ")
  /// ``itemColumns`` of the table named `i` in a query.
  static let itemColumnsOfI = columnNames.map { "i." + $0 }.joined(separator: ", ")
  /// The number of ``itemColumns``: the position of the first column a query selects after them.
  static let columnCount = columnNames.count

  /// The item of a row that starts with ``itemColumns``.
  static func item(_ row: PostgresRandomAccessRow) throws -> OutboxItem {
    let method = try row[4].decode(String.self)
    let state = try row[10].decode(String.self)
    let after = try row[9].decode(Int64?.self)
    return OutboxItem(
      id: OutboxItem.ID(rawValue: try row[0].decode(Int64.self)), lane: try row[1].decode(String.self),
      kind: try row[2].decode(String.self), kindVersion: try row[3].decode(Int.self),
      method: HTTPRequest.Method(method) ?? .post, target: try row[5].decode(String.self),
      headerFields: try FieldCoding.decode(try row[6].decode(Data.self)), bodyLength: try row[7].decode(Int.self),
      idempotencyKey: try row[8].decode(String.self), after: after.map(OutboxItem.ID.init(rawValue:)),
      state: OutboxItem.State(rawValue: state) ?? .quarantined, attempts: try row[11].decode(Int.self),
      enqueuedAt: Date(timeIntervalSince1970: try row[12].decode(Double.self)),
      nextAttemptAt: Date(timeIntervalSince1970: try row[13].decode(Double.self)),
      responseStatus: try row[14].decode(Int?.self).map { HTTPResponse.Status(code: $0) },
      reason: try row[15].decode(String?.self))
  }

  /// A lane's first item, from a row that starts with ``itemColumns`` followed by its dependency's state.
  static func candidate(_ row: PostgresRandomAccessRow) throws -> Candidate {
    let dependency = try row[columnCount].decode(String?.self).flatMap(OutboxItem.State.init(rawValue:))
    let notBefore = try row[16].decode(Double?.self)
    let giveUpAfter = try row[17].decode(Double?.self)
    let rule = try row[18].decode(String.self)
    let constraints = OutboxConstraints(
      allowsExpensiveNetwork: try row[19].decode(Bool.self), allowsConstrainedNetwork: try row[20].decode(Bool.self),
      notBefore: notBefore.map(Date.init(timeIntervalSince1970:)),
      giveUpAfter: giveUpAfter.map(Date.init(timeIntervalSince1970:)),
      ifDependencyFails: DependencyFailure(rawValue: rule) ?? .cancel)
    return Candidate(
      item: try item(row), constraints: constraints, dependency: dependency,
      heldUntil: try row[21].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
      handedOff: try row[22].decode(Double?.self) != nil)
  }

  /// The stored request of `item`, with its body and digest at `position` and the one after.
  static func request(of item: OutboxItem, _ row: PostgresRandomAccessRow, from position: Int) throws -> StoredRequest {
    StoredRequest(
      method: item.method, target: item.target, headerFields: item.headerFields,
      body: try row[position].decode(Data?.self), bodyLength: item.bodyLength,
      bodyDigest: try row[position + 1].decode(String.self), idempotencyKey: item.idempotencyKey)
  }
}
