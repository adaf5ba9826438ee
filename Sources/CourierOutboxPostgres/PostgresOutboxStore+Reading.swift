import CourierOutbox
import Foundation
import HTTPTypes
import PostgresNIO

// What the outbox reads from its PostgreSQL store: the lanes' first items, results and totals, and how rows become
// the outbox's types.
extension PostgresOutboxStore {
  package func laneHeads(excluding busyLanes: Set<String>) async throws -> [Candidate] {
    // One call of the store's function (``PostgresOutboxSchema/laneHeads(_:)``), planned once a session: a fleet's
    // workers look at the lanes' heads after every lane given back, and planning the query took longer than running it.
    let query: PostgresQuery = """
      SELECT \(unescaped: Self.headColumns), r.dependency FROM \(unescaped: names.laneHeads)(\(worker)) AS r
      """
    return try await run { connection in
      var candidates: [Candidate] = []
      for try await row in try await connection.checkedQuery(query, logger: self.logger) {
        let candidate = try Self.candidate(row)
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
    for try await row in rows { return try Self.candidate(row) }
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
        let item = try Self.item(row)
        let columns = row.makeRandomAccess()
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
  /// ``itemColumns`` of the row `r.head` (the store's function's lane head).
  static let headColumns = columnNames.map { "(r.head)." + $0 }.joined(separator: ", ")
  /// ``itemColumns`` of the table named `i` in a query.
  static let itemColumnsOfI = columnNames.map { "i." + $0 }.joined(separator: ", ")
  /// The number of ``itemColumns``: the position of the first column a query selects after them.
  static let columnCount = columnNames.count

  /// The values of ``itemColumns``, in their order and with their types, as postgres-nio's typed decoding reads them
  /// from the start of a row.
  typealias ItemColumns = (
    id: Int64, lane: String, kind: String, kindVersion: Int, method: String, target: String, headers: Data,
    bodyLength: Int, idempotencyKey: String, after: Int64?, state: String, attempts: Int, enqueuedAt: Date,
    nextAttemptAt: Date, responseStatus: Int?, reason: String?, notBefore: Date?, giveUpAfter: Date?,
    ifDependencyFails: String, allowsExpensive: Bool, allowsConstrained: Bool, heldUntil: Date?, handedOffAt: Date?
  )

  /// The values of ``itemColumns`` at the start of `row`, by postgres-nio's typed decoding (which throws, naming the
  /// column, when a type does not match).
  static func columns(_ row: PostgresRow) throws -> ItemColumns {
    try row.decode(
      (
        Int64, String, String, Int, String, String, Data, Int, String, Int64?, String, Int, Date, Date, Int?,
        String?, Date?, Date?, String, Bool, Bool, Date?, Date?
      ).self)
  }

  /// The item of a row that starts with ``itemColumns``.
  static func item(_ row: PostgresRow) throws -> OutboxItem {
    try item(columns(row))
  }

  static func item(_ c: ItemColumns) throws -> OutboxItem {
    OutboxItem(
      id: OutboxItem.ID(rawValue: c.id), lane: c.lane, kind: c.kind, kindVersion: c.kindVersion,
      method: HTTPRequest.Method(c.method) ?? .post, target: c.target, headerFields: try FieldCoding.decode(c.headers),
      bodyLength: c.bodyLength, idempotencyKey: c.idempotencyKey, after: c.after.map(OutboxItem.ID.init(rawValue:)),
      state: OutboxItem.State(rawValue: c.state) ?? .quarantined, attempts: c.attempts,
      enqueuedAt: c.enqueuedAt, nextAttemptAt: c.nextAttemptAt,
      responseStatus: c.responseStatus.map { HTTPResponse.Status(code: $0) }, reason: c.reason)
  }

  /// A lane's first item, from a row that starts with ``itemColumns`` followed by its dependency's state.
  static func candidate(_ row: PostgresRow) throws -> Candidate {
    let c = try columns(row)
    let dependency = try row.makeRandomAccess()[columnCount].decode(String?.self)
    let constraints = OutboxConstraints(
      allowsExpensiveNetwork: c.allowsExpensive, allowsConstrainedNetwork: c.allowsConstrained,
      notBefore: c.notBefore, giveUpAfter: c.giveUpAfter,
      ifDependencyFails: DependencyFailure(rawValue: c.ifDependencyFails) ?? .cancel)
    return Candidate(
      item: try item(c), constraints: constraints, dependency: dependency.flatMap(OutboxItem.State.init(rawValue:)),
      heldUntil: c.heldUntil, handedOff: c.handedOffAt != nil)
  }

  /// The stored request of `item`, with its body and digest at `position` and the one after.
  static func request(of item: OutboxItem, _ row: PostgresRow, from position: Int) throws -> StoredRequest {
    let row = row.makeRandomAccess()
    return StoredRequest(
      method: item.method, target: item.target, headerFields: item.headerFields,
      body: try row[position].decode(Data?.self), bodyLength: item.bodyLength,
      bodyDigest: try row[position + 1].decode(String.self), idempotencyKey: item.idempotencyKey)
  }
}
