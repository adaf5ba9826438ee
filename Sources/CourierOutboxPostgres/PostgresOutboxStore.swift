import CourierOutbox
import Foundation
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// The outbox's store in PostgreSQL, shared by every worker of a fleet.
///
/// A lane is held by one worker at a time, under a lease in its lane row: claiming an item locks the row with
/// `FOR UPDATE SKIP LOCKED` and takes the lease when it is free, its own, or ended (its worker died). Every record of
/// an attempt renews the lease and checks it is still this worker's (a fence), in the transaction that records; a
/// worker that lost its lease records nothing, and the item is sent again, with its key, by the lane's new holder.
/// An enqueue and a lane given back send a `NOTIFY` that wakes idle workers (a lane given back at the end of its turn
/// only when its worker leaves one it cannot take: `releaseLane(_:wakingOthers:)`).
package final class PostgresOutboxStore: OutboxStore {
  let client: PostgresClient
  let names: PostgresOutboxNames
  /// This worker's name in the lane rows it holds.
  let worker: String
  /// How long a lane stays held without a renewal.
  let leaseSeconds: Double
  let logger: Logger
  /// The lanes this worker holds now, renewed while their attempts are under way.
  let held = NIOLockedValueBox<Set<String>>([])

  // A lane row `l` may be taken when no one holds it, this worker does, or its holder's lease ended;
  // a record renews the lease when this worker holds the lane, and leaves it as it was otherwise (a lane no one holds
  // is recorded on without being taken: a deadline's dead letter, found by the delivery loop). Both are written out in
  // each statement, every value bound.

  package var isShared: Bool { true }

  /// How long one operation on the store may take before it counts as lost (see ``guarded(_:)``):
  /// `PostgresOutboxOptions.operationTimeout`.
  let operationLimit: Duration
  /// The pool's `run()`, ended with the store; `nil` for the service's own client, which the service runs and ends.
  let running: Task<Void, Never>?
  /// The `statement_timeout` and `lock_timeout` the store's transactions set for themselves (`SET LOCAL`), in
  /// milliseconds: on the service's own client, whose sessions the store must leave as they are. `nil` on the
  /// store's own pool, whose sessions start with them.
  let timeoutsPerTransaction: Int64?

  init(
    client: PostgresClient, running: Task<Void, Never>?, timeoutsPerTransaction: Int64? = nil,
    names: PostgresOutboxNames, operationLimit: Duration, leaseSeconds: Double, logger: Logger
  ) {
    self.client = client
    self.operationLimit = operationLimit
    self.running = running
    self.timeoutsPerTransaction = timeoutsPerTransaction
    self.names = names
    self.worker = UUID().uuidString.lowercased()
    self.leaseSeconds = leaseSeconds
    self.logger = logger
  }

  deinit {
    running?.cancel()
  }

  // MARK: Writing

  package func insert(_ items: [NewItem]) async throws -> [OutboxItem.ID] {
    try await transaction { connection in try await Self.insert(items, names: self.names, on: connection, self.logger) }
  }

  /// Writes `items` through `connection`, in whatever transaction it is in, in order: in one statement when none binds
  /// values from an earlier answer (the values of those are looked up one item at a time).
  static func insert(
    _ items: [NewItem], names: PostgresOutboxNames, on connection: PostgresConnection, _ logger: Logger
  ) async throws -> [OutboxItem.ID] {
    // Items that wait for another go one at a time: their dependency's answer may bind values into them.
    guard items.count > 1, items.allSatisfy({ $0.after == nil && $0.bindings.isEmpty }) else {
      var ids: [OutboxItem.ID] = []
      for item in items { ids.append(try await insert(item, names: names, on: connection, logger)) }
      return ids
    }
    // Arrays hold no NULL here: an absent value travels as a stand-in beside a flag that says whether there is one
    // (a body, a time; an ID is 0, which NULLIF turns back into NULL). New lanes are written in their order,
    // as every batch writes them, so that two batches that make the same lanes never wait for each other in a cycle.
    let requests = items.map(\.request)
    let notBefore = items.map { Self.time($0.constraints.notBefore) }
    let giveUpAfter = items.map { Self.time($0.constraints.giveUpAfter) }
    let noTime = Date(timeIntervalSince1970: 0)
    let query: PostgresQuery = """
      WITH new AS (
        INSERT INTO \(unescaped: names.item) (lane, kind, kind_version, method, target, headers, body, body_length,
          body_digest, idempotency_key, after_id, if_dependency_fails, allows_expensive, allows_constrained,
          not_before, give_up_after, state, enqueued_at, next_attempt_at, updated_at)
        SELECT r.lane, r.kind, r.kind_version, r.method, r.target, r.headers, CASE WHEN r.has_body THEN r.body END,
          r.body_length, r.body_digest, r.idempotency_key, NULLIF(r.after_id, 0), r.if_dependency_fails,
          r.allows_expensive, r.allows_constrained, CASE WHEN r.has_not_before THEN r.not_before END,
          CASE WHEN r.has_give_up_after THEN r.give_up_after END, 'pending', r.at, r.at, r.at
        FROM unnest(
          \(items.map(\.lane)), \(items.map(\.kind)), \(items.map(\.kindVersion)), \(requests.map(\.method.rawValue)),
          \(requests.map(\.target)), \(requests.map { ByteBuffer(bytes: FieldCoding.encode($0.headerFields)) }),
          \(requests.map { ByteBuffer(bytes: $0.body ?? Data()) }), \(requests.map { $0.body != nil }),
          \(requests.map(\.bodyLength)), \(requests.map(\.bodyDigest)), \(requests.map(\.idempotencyKey)),
          \(items.map { $0.after?.rawValue ?? 0 }), \(items.map(\.constraints.ifDependencyFails.rawValue)),
          \(items.map(\.constraints.allowsExpensiveNetwork)), \(items.map(\.constraints.allowsConstrainedNetwork)),
          \(notBefore.map { $0 ?? noTime }), \(notBefore.map { $0 != nil }), \(giveUpAfter.map { $0 ?? noTime }),
          \(giveUpAfter.map { $0 != nil }), \(items.map { Self.time($0.enqueuedAt) })
        ) WITH ORDINALITY AS r(lane, kind, kind_version, method, target, headers, body, has_body, body_length,
          body_digest, idempotency_key, after_id, if_dependency_fails, allows_expensive, allows_constrained, not_before,
          has_not_before, give_up_after, has_give_up_after, at, n)
        ORDER BY r.n
        RETURNING id),
      lane AS (
        INSERT INTO \(unescaped: names.lane) (name)
        SELECT DISTINCT name FROM unnest(\(items.map(\.lane))) AS name ORDER BY name ON CONFLICT DO NOTHING)
      SELECT new.id FROM new CROSS JOIN (SELECT pg_notify(\(names.channel), '')) AS woken ORDER BY new.id
      """
    var ids: [OutboxItem.ID] = []
    for try await id in try await connection.checkedQuery(query, logger: logger).decode(Int64.self) {
      ids.append(OutboxItem.ID(rawValue: id))
    }
    guard ids.count == items.count else {
      throw OutboxError(
        .storeFailure, "The outbox's insert of \(items.count) items into \(names.item) returned \(ids.count) ids")
    }
    return ids
  }

  /// Writes `item` through `connection`, in whatever transaction it is in; the `NOTIFY` that wakes the workers is
  /// delivered when that transaction commits.
  static func insert(
    _ item: NewItem, names: PostgresOutboxNames, on connection: PostgresConnection, _ logger: Logger
  ) async throws -> OutboxItem.ID {
    var request = item.request
    var bindings: Data?
    if !item.bindings.isEmpty, let after = item.after {
      // Its dependency may have its answer already: the values are bound now, or the enqueue says why they cannot be.
      if let answer = try await answer(of: after, names: names, on: connection, logger) {
        request = try OutboxBinding.apply(item.bindings, from: answer, dependency: after, to: request)
      } else {
        bindings = try JSONEncoder().encode(item.bindings)
      }
    }
    let constraints = item.constraints
    let enqueuedAt = time(item.enqueuedAt)
    let query: PostgresQuery = try """
    WITH new AS (
      INSERT INTO \(unescaped: names.item) (lane, kind, kind_version, method, target, headers, body, body_length,
        body_digest, idempotency_key, after_id, if_dependency_fails, allows_expensive, allows_constrained,
        not_before, give_up_after, state, enqueued_at, next_attempt_at, updated_at, bindings)
      VALUES (\(item.lane), \(item.kind), \(item.kindVersion), \(request.method.rawValue), \(request.target),
        \(FieldCoding.encode(request.headerFields)), \(request.body), \(request.bodyLength), \(request.bodyDigest),
        \(request.idempotencyKey), \(item.after?.rawValue), \(constraints.ifDependencyFails.rawValue),
        \(constraints.allowsExpensiveNetwork), \(constraints.allowsConstrainedNetwork),
        \(time(constraints.notBefore)), \(time(constraints.giveUpAfter)),
        'pending', \(enqueuedAt), \(enqueuedAt), \(enqueuedAt), \(bindings))
      RETURNING id),
    lane AS (INSERT INTO \(unescaped: names.lane) (name) VALUES (\(item.lane)) ON CONFLICT DO NOTHING)
    SELECT new.id FROM new CROSS JOIN (SELECT pg_notify(\(names.channel), '')) AS woken
    """
    let rows = try await connection.checkedQuery(query, logger: logger)
    for try await id in rows.decode(Int64.self) { return OutboxItem.ID(rawValue: id) }
    throw OutboxError(.storeFailure, "The outbox's insert into \(names.item) returned no id")
  }

  package func claimHeads(_ ids: [OutboxItem.ID]) async throws -> [Claim] {
    guard !ids.isEmpty else { return [] }
    // Each item must still be its lane's first waiting one, and the lane free, this worker's or its lease ended
    // (``PostgresOutboxSchema/claimHeads(_:)``): one round trip for the lanes a pass of the delivery loop starts.
    let query: PostgresQuery = """
      SELECT \(unescaped: Self.itemColumns), body, body_digest
      FROM \(unescaped: names.claimHeads)(\(ids.map(\.rawValue)), \(worker), \(leaseSeconds))
      """
    let claims = try await run { connection -> [Claim] in
      var claims: [Claim] = []
      for try await row in try await connection.checkedQuery(query, logger: self.logger) {
        let item = try Self.item(row)
        claims.append((item, try Self.request(of: item, row, from: Self.columnCount)))
      }
      return claims
    }
    held.withLockedValue { held in
      for claim in claims { held.insert(claim.item.lane) }
    }
    return claims
  }

  package func releaseLane(_ lane: String, wakingOthers: Bool) async {
    held.withLockedValue { _ = $0.remove(lane) }
    // Given back so that another worker may take it at once; if this fails, the lease ends on its own.
    _ = try? await run { connection in
      if wakingOthers {
        try await connection.checkedQuery(
          """
          WITH released AS (
            UPDATE \(unescaped: self.names.lane) SET holder = NULL, lease_until = NULL
            WHERE name = \(lane) AND holder = \(self.worker) RETURNING name)
          SELECT pg_notify(\(self.names.channel), '') FROM released
          """, logger: self.logger)
      } else {
        try await connection.checkedQuery(
          """
          UPDATE \(unescaped: self.names.lane) SET holder = NULL, lease_until = NULL
          WHERE name = \(lane) AND holder = \(self.worker)
          """, logger: self.logger)
      }
    }
  }

  package func wakeOthers() async { await notify() }

  /// A third of the lease: a record renews it, and the items claimed with it are sent well before it ends.
  package var claimsHoldFor: Duration? { .seconds(leaseSeconds / 3) }

  package func transition(
    _ id: OutboxItem.ID, from: Set<OutboxItem.State>, to: OutboxItem.State, reason: String?, newKey: String?,
    at date: Date
  ) async throws -> Bool {
    let now = Self.time(date)
    let states = from.map(\.rawValue)
    let query: PostgresQuery =
      if let newKey {
        """
        UPDATE \(unescaped: names.item) SET state = \(to.rawValue), reason = \(reason), updated_at = \(now),
          handed_off_at = NULL, idempotency_key = \(newKey), attempts = 0, next_attempt_at = \(now)
        WHERE id = \(id.rawValue) AND state = ANY(\(states)) RETURNING 1
        """
      } else {
        """
        UPDATE \(unescaped: names.item) SET state = \(to.rawValue), reason = \(reason), updated_at = \(now),
          handed_off_at = NULL WHERE id = \(id.rawValue) AND state = ANY(\(states)) RETURNING 1
        """
      }
    return try await changes(query) > 0
  }

  package func cancelDependants(of id: OutboxItem.ID, reason: String, at date: Date) async throws -> [OutboxItem.ID] {
    try await transaction { connection in
      var cancelled: [OutboxItem.ID] = []
      var frontier = [id.rawValue]
      // A chain of dependants fails one link after another.
      while let next = frontier.popLast() {
        let rows = try await connection.checkedQuery(
          """
          UPDATE \(unescaped: self.names.item) SET state = 'cancelled', reason = \(reason),
            updated_at = \(Self.time(date))
          WHERE after_id = \(next) AND state IN ('pending', 'sending') AND if_dependency_fails = 'cancel'
          RETURNING id
          """, logger: self.logger)
        for try await dependant in rows.decode(Int64.self) {
          cancelled.append(OutboxItem.ID(rawValue: dependant))
          frontier.append(dependant)
        }
      }
      return cancelled
    }
  }

  package func setLane(_ lane: String, pausedBecause reason: String?) async throws {
    try await run { connection in try await self.setLane(lane, pausedBecause: reason, on: connection) }
    if reason == nil { await notify() }
  }

  func setLane(_ lane: String, pausedBecause reason: String?, on connection: PostgresConnection) async throws {
    try await connection.checkedQuery(
      """
      INSERT INTO \(unescaped: names.lane) (name, paused_reason) VALUES (\(lane), \(reason))
      ON CONFLICT (name) DO UPDATE SET paused_reason = excluded.paused_reason
      """, logger: logger)
  }

  package func restartRetention(_ id: OutboxItem.ID, at date: Date) async throws {
    _ = try await changes(
      """
      UPDATE \(unescaped: names.item) SET enqueued_at = \(Self.time(date)) WHERE id = \(id.rawValue)
      """)
  }

  package func markHandled(_ id: OutboxItem.ID) async throws {
    _ = try await changes(
      "UPDATE \(unescaped: names.item) SET result_handled = true WHERE id = \(id.rawValue)")
  }

  package func edit(_ id: OutboxItem.ID, request: StoredRequest, at date: Date) async throws -> Bool {
    let now = Self.time(date)
    return try await changes(
      """
      UPDATE \(unescaped: names.item) SET headers = \(FieldCoding.encode(request.headerFields)),
        body = \(request.body), body_length = \(request.bodyLength), body_digest = \(request.bodyDigest),
        idempotency_key = \(request.idempotencyKey), attempts = 0, updated_at = \(now), next_attempt_at = \(now)
      WHERE id = \(id.rawValue) AND state = 'pending' RETURNING 1
      """) > 0
  }

  /// `date` as a `timestamptz` holds it: within the years 1 to 4001 (`Date.distantPast` and `Date.distantFuture`), so
  /// that no time the outbox computes (a `Retry-After` of centuries) or is given fails to be written.
  static func time(_ date: Date) -> Date {
    time(Optional(date)) ?? Date(timeIntervalSince1970: 0)
  }

  /// `date` as a `timestamptz` holds it (as the one above), and `nil` for a NaN, which is before and after no
  /// moment: the outbox treats it as no time at all, and `timestamptz` cannot hold it.
  static func time(_ date: Date?) -> Date? {
    guard let date, !date.timeIntervalSinceReferenceDate.isNaN else { return nil }
    return min(max(date, .distantPast), .distantFuture)
  }

  /// Sends a `NOTIFY` on the outbox's channel: idle workers look again.
  func notify() async {
    _ = try? await run { connection in
      try await connection.checkedQuery("SELECT pg_notify(\(self.names.channel), '')", logger: self.logger)
    }
  }
}
