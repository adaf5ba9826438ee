import CourierOutbox
import Foundation
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

// How an attempt's outcome is recorded: under the lane's lease (the fence), with the dependants' values bound and
// the lane's next item claimed in the same transaction.
extension PostgresOutboxStore {
  package func recordDeliveries(
    _ deliveries: [Delivery], lane: String, at date: Date, claimingUpTo limit: Int,
    claimingNextIf claim: @escaping @Sendable (Candidate) -> Bool
  ) async throws -> (RecordResult, [Claim]) {
    guard !deliveries.isEmpty else { return (RecordResult(), []) }
    if let recorded = try await recordTogether(
      deliveries, lane: lane, at: date, claimingUpTo: limit, claimingNextIf: claim)
    {
      return recorded
    }
    guard deliveries.count > 1 else { throw Self.unexpectedlyAlone }
    // A row locked by another transaction, or dependants that bind values: one at a time, each call waiting for its
    // own item's row only.
    var recorded = RecordResult()
    var claims: [Claim] = []
    for (index, delivery) in deliveries.enumerated() {
      let last = index == deliveries.count - 1
      let (result, next) = try await recordDeliveries(
        [delivery], lane: lane, at: date, claimingUpTo: last ? limit : 0, claimingNextIf: claim)
      recorded.add(result)
      claims = next
    }
    return (recorded, claims)
  }

  /// Records `deliveries` in one call of the store's function, and claims the lane's next items with them; `nil` when
  /// several are to be recorded one at a time (``PostgresOutboxSchema/recordDeliveries(_:)``).
  func recordTogether(
    _ deliveries: [Delivery], lane: String, at date: Date, claimingUpTo limit: Int,
    claimingNextIf claim: @escaping @Sendable (Candidate) -> Bool
  ) async throws -> (RecordResult, [Claim])? {
    // On the store's own pool, whose sessions carry the time limits, the function's call is a transaction of its
    // own: one round trip. On the service's client, whose limits a transaction sets for itself, and for an item whose
    // dependants bind values from its answer, it runs in a transaction.
    if timeoutsPerTransaction == nil {
      let alone = try await guarded {
        try await self.client.withConnection { connection in
          // A deadlock with another worker's or the service's transaction rolled the call back whole: it runs again,
          // as a transaction does (`transaction(_:)`).
          var attempt = 1
          while true {
            do {
              return try await self.recordDeliveries(
                deliveries, lane: lane, at: date, claimingUpTo: limit, alone: true, on: connection)
            } catch  where attempt < 3 && Self.mayRunAgain(error) {
              attempt += 1
            }
          }
        }
      }
      if let (recorded, heads) = alone {
        let (claims, refused) = Self.accepted(heads, claim)
        if !refused.isEmpty {
          // Claimed with the deliveries, as most are; given back at once. The deliveries are recorded whatever comes
          // of that: should the worker die first, or the statement fail, the items wait, sending, for the lease to end
          // (or for this worker's next claim of the lane), and are sent again with their keys, one attempt more
          // counted.
          do {
            try await run { connection in try await self.giveBack(refused, on: connection) }
          } catch {
            logger.debug("The outbox could not give back items \(refused): \(error)")
          }
        }
        return (recorded, claims)
      }
      if deliveries.count > 1 { return nil }
    }
    return try await transaction { connection -> (RecordResult, [Claim])? in
      guard
        let (recorded, heads) = try await self.recordDeliveries(
          deliveries, lane: lane, at: date, claimingUpTo: limit, alone: false, on: connection)
      else { return nil }
      let (claims, refused) = Self.accepted(heads, claim)
      // Claimed with the deliveries, as most are; given back in the same transaction, as if never claimed.
      if !refused.isEmpty { try await self.giveBack(refused, on: connection) }
      return (recorded, claims)
    }
  }

  /// The claims of `heads` that may go, in order up to the first that may not (or that binding made a dead letter),
  /// and the IDs of the others, to give back.
  static func accepted(
    _ heads: [(candidate: Candidate, claim: Claim?)], _ claim: (Candidate) -> Bool
  ) -> (claims: [Claim], refused: [OutboxItem.ID]) {
    var claims: [Claim] = []
    for (index, head) in heads.enumerated() {
      guard let accepted = head.claim, claim(head.candidate) else {
        return (claims, heads[index...].filter { $0.claim != nil }.map(\.candidate.item.id))
      }
      claims.append(accepted)
    }
    return (claims, [])
  }

  /// Gives back `ids`, marked sending with a delivery though they may not go yet, as if they had not been claimed.
  func giveBack(_ ids: [OutboxItem.ID], on connection: PostgresConnection) async throws {
    try await connection.checkedQuery(
      """
      UPDATE \(unescaped: names.item) SET state = 'pending', attempts = GREATEST(attempts - 1, 0)
      WHERE id = ANY(\(ids.map(\.rawValue))) AND state = 'sending'
      """, logger: logger)
  }

  /// What a call of the function in a transaction never says: that it needs one.
  static let unexpectedlyAlone = OutboxError(
    .storeFailure, "The outbox's delivery function asked for a transaction from within one")

  package func record(
    _ record: AttemptRecord, for id: OutboxItem.ID, lane: String, at date: Date, ifAttempt attempt: Int?
  ) async throws -> RecordResult {
    try await transaction { connection in
      if let attempt {
        let rows = try await connection.checkedQuery(
          """
          SELECT 1 FROM \(unescaped: self.names.item)
          WHERE id = \(id.rawValue) AND state = 'sending' AND attempts = \(attempt) FOR UPDATE
          """, logger: self.logger)
        var latest = false
        for try await _ in rows { latest = true }
        guard latest else {
          throw OutboxError(.noSuchItem, "The outbox item \(id) is no longer sending its attempt \(attempt)")
        }
      }
      return try await self.record(record, for: id, lane: lane, at: date, on: connection)
    }
  }

  /// Records `record` in the transaction of `connection`, under the lane's lease.
  func record(
    _ record: AttemptRecord, for id: OutboxItem.ID, lane: String, at date: Date, on connection: PostgresConnection
  ) async throws -> RecordResult {
    let now = Self.time(date)
    let item = names.item
    if case .delivered(let response) = record {
      guard
        let (recorded, _) = try await self.recordDeliveries(
          [(id: id, response: response)], lane: lane, at: date, claimingUpTo: 0, alone: false,
          on: connection)
      else { throw Self.unexpectedlyAlone }
      return recorded
    }
    try await self.fence(lane, on: connection)
    switch record {
    case .delivered:
      return RecordResult()
    case .retry(let at, let heldUntil, let reason):
      try await connection.checkedQuery(
        """
        UPDATE \(unescaped: item) SET state = 'pending', next_attempt_at = \(Self.time(at)),
          held_until = \(Self.time(heldUntil)), updated_at = \(now), reason = \(reason),
          handed_off_at = NULL WHERE id = \(id.rawValue) AND state IN ('pending', 'sending')
        """, logger: self.logger)
    case .pauseLane(let reason):
      try await connection.checkedQuery(
        """
        UPDATE \(unescaped: item) SET state = 'pending', updated_at = \(now), reason = \(reason),
          handed_off_at = NULL WHERE id = \(id.rawValue) AND state IN ('pending', 'sending')
        """, logger: self.logger)
      try await self.setLane(lane, pausedBecause: reason, on: connection)
    case .cut(let reason):
      try await connection.checkedQuery(
        """
        UPDATE \(unescaped: item) SET state = 'pending', attempts = GREATEST(attempts - 1, 0), updated_at = \(now),
          reason = \(reason), handed_off_at = NULL WHERE id = \(id.rawValue) AND state IN ('pending', 'sending')
        """, logger: self.logger)
    case .deadLetter(let reason, let response):
      try await connection.checkedQuery(
        """
        UPDATE \(unescaped: item) SET state = 'deadLetter', updated_at = \(now), reason = \(reason),
          response_status = \(response?.status.code), response_headers = \(response.map { FieldCoding.encode($0.headerFields) }),
          response_body = \(response?.body), result_handled = false, handed_off_at = NULL
          WHERE id = \(id.rawValue) AND state IN ('pending', 'sending')
        """, logger: self.logger)
    }
    return RecordResult()
  }

  /// Renews this worker's lease on `lane` in the transaction that records an attempt, and locks the lane's row; throws
  /// when another worker holds the lane (this worker's lease ended and it was taken), so that nothing is recorded.
  func fence(_ lane: String, on connection: PostgresConnection) async throws {
    let rows = try await connection.checkedQuery(
      """
      UPDATE \(unescaped: names.lane) AS l
      SET lease_until = CASE WHEN l.holder = \(worker)
        THEN clock_timestamp() + make_interval(secs => \(leaseSeconds)) ELSE l.lease_until END
      WHERE l.name = \(lane)
        AND (l.holder IS NULL OR l.holder = \(worker) OR l.lease_until < clock_timestamp()) RETURNING 1
      """, logger: logger)
    for try await _ in rows { return }
    throw lostLease(lane)
  }

  /// The error of a record refused because the lease ended; the lane is no longer counted as held.
  func lostLease(_ lane: String) -> OutboxError {
    held.withLockedValue { _ = $0.remove(lane) }
    return OutboxError(
      .storeFailure,
      "This worker's lease on the lane \"\(lane)\" ended and another worker holds it: the attempt is not recorded, "
        + "and the lane's holder sends the item again with its key")
  }

  /// Records the deliveries of a run of `lane`'s items, under this worker's lease on the lane, and binds their
  /// dependants' values; marks the lane's next items sending too, up to `limit`, and returns them in order, each as a
  /// candidate and as a claim (`nil` for one that binding made a dead letter). One call of the store's function
  /// (``PostgresOutboxSchema/functions(_:)``), and round trips more for items with dependants that bind values from
  /// their answers. `nil` when nothing was recorded: several deliveries, one of whose rows another transaction holds
  /// or whose dependants bind values, are recorded one at a time; with `alone`, for a call outside a transaction, one
  /// whose dependants bind values is recorded in a transaction, where they are bound.
  func recordDeliveries(
    _ deliveries: [Delivery], lane: String, at date: Date, claimingUpTo limit: Int, alone: Bool,
    on connection: PostgresConnection
  ) async throws -> (RecordResult, [(candidate: Candidate, claim: Claim?)])? {
    // Each head's columns first, then its dependency's state, as ``candidate(_:)`` reads them; its body last.
    let responses = deliveries.map(\.response)
    let rows = try await connection.checkedQuery(
      """
      SELECT \(unescaped: Self.headColumns), r.dependency, r.recorded, r.has_dependants, (r.head).id IS NOT NULL,
        (r.head).body, (r.head).body_digest, r.needs_transaction
      FROM \(unescaped: names.recordDeliveries)(
        \(deliveries.map(\.id.rawValue)), \(lane), \(worker), \(leaseSeconds),
        \(responses.map { Int32($0.status.code) }),
        \(responses.map { ByteBuffer(bytes: FieldCoding.encode($0.headerFields)) }),
        \(responses.map { ByteBuffer(bytes: $0.body) }), \(Self.time(date)), \(Int32(limit)), \(alone)) AS r
      """, logger: logger)
    var recorded = false
    var hasDependants = false
    var needsTransaction = false
    var heads: [(candidate: Candidate, claim: Claim?)] = []
    for try await row in rows {
      let columns = row.makeRandomAccess()
      recorded = try columns[Self.columnCount + 1].decode(Bool.self)
      hasDependants = try columns[Self.columnCount + 2].decode(Bool.self)
      needsTransaction = try columns[Self.columnCount + 6].decode(Bool.self)
      guard try columns[Self.columnCount + 3].decode(Bool.self) else { continue }
      let candidate = try Self.candidate(row)
      heads.append(
        (candidate, (candidate.item, try Self.request(of: candidate.item, row, from: Self.columnCount + 4))))
    }
    if needsTransaction { return nil }
    guard recorded else { throw lostLease(lane) }
    guard hasDependants else { return (RecordResult(), heads) }
    var result = RecordResult()
    for delivery in deliveries {
      result.add(try await bind(dependantsOf: delivery.id, to: delivery.response, at: date, on: connection))
    }
    // The heads may be among them: their requests are read again as binding left them, and one that became a dead
    // letter is no claim.
    var reread: [(candidate: Candidate, claim: Claim?)] = []
    for head in heads {
      reread.append((head.candidate, try await readClaim(of: head.candidate, on: connection)))
    }
    return (result, reread)
  }

  /// Writes the values `response` holds into the waiting dependants of `id` that bind them; a dependant whose value
  /// is missing becomes a dead letter.
  func bind(
    dependantsOf id: OutboxItem.ID, to response: RecordedResponse, at date: Date, on connection: PostgresConnection
  ) async throws -> RecordResult {
    let rows = try await connection.checkedQuery(
      """
      SELECT \(unescaped: Self.itemColumns), body, body_digest, bindings FROM \(unescaped: names.item)
      WHERE after_id = \(id.rawValue) AND bindings IS NOT NULL AND state IN ('pending', 'sending')
      """, logger: logger)
    var dependants: [(StoredRequest, OutboxItem.ID, Data)] = []
    for try await row in rows {
      let item = try Self.item(row)
      let bindings = try row.makeRandomAccess()[Self.columnCount + 2].decode(Data.self)
      dependants.append((try Self.request(of: item, row, from: Self.columnCount), item.id, bindings))
    }
    var failures: [BindingFailure] = []
    for (request, dependant, encoded) in dependants {
      do {
        let bindings = try JSONDecoder().decode([OutboxBinding].self, from: encoded)
        let bound = try OutboxBinding.apply(bindings, from: response, dependency: id, to: request)
        try await connection.checkedQuery(
          """
          UPDATE \(unescaped: names.item) SET target = \(bound.target),
            headers = \(FieldCoding.encode(bound.headerFields)), body = \(bound.body), body_length = \(bound.bodyLength),
            body_digest = \(bound.bodyDigest), bindings = NULL WHERE id = \(dependant.rawValue)
          """, logger: logger)
      } catch let error as OutboxError {
        try await connection.checkedQuery(
          """
          UPDATE \(unescaped: names.item) SET state = 'deadLetter', updated_at = \(Self.time(date)),
            reason = \(error.message), result_handled = false WHERE id = \(dependant.rawValue)
          """, logger: logger)
        failures.append(BindingFailure(id: dependant, error: error))
      }
    }
    return RecordResult(failures: failures, changedDependants: !dependants.isEmpty)
  }

  /// The claim of `candidate`, marked sending in this transaction by the lane's holder, read again as binding its
  /// values left it; `nil` when it is no longer sending (it became a dead letter).
  func readClaim(of candidate: Candidate, on connection: PostgresConnection) async throws -> Claim? {
    let rows = try await connection.checkedQuery(
      """
      SELECT \(unescaped: Self.itemColumns), body, body_digest FROM \(unescaped: names.item)
      WHERE id = \(candidate.item.id.rawValue) AND state = 'sending'
      """, logger: logger)
    for try await row in rows {
      let item = try Self.item(row)
      return (item, try Self.request(of: item, row, from: Self.columnCount))
    }
    return nil
  }

  /// The recorded answer of `id`, once it was delivered.
  static func answer(
    of id: OutboxItem.ID, names: PostgresOutboxNames, on connection: PostgresConnection, _ logger: Logger
  ) async throws -> RecordedResponse? {
    // The row is locked whatever its state: a delivery recording its answer now either finished (and its answer is
    // read here) or waits for this enqueue to commit (and then binds its values into the new item).
    let rows = try await connection.checkedQuery(
      """
      SELECT state, response_status, response_headers, response_body FROM \(unescaped: names.item)
      WHERE id = \(id.rawValue) FOR SHARE
      """, logger: logger)
    for try await (state, status, headers, body) in rows.decode((String, Int?, Data?, Data?).self) {
      guard state == OutboxItem.State.delivered.rawValue, let status else { return nil }
      return RecordedResponse(
        status: HTTPResponse.Status(code: status), headerFields: try FieldCoding.decode(headers), body: body ?? Data())
    }
    return nil
  }
}
