#if SQLiteOutbox
import Foundation
import GRDB
import HTTPTypes

/// The outbox's store in SQLite, through GRDB: a file of its own in WAL mode, or tables in the app's own database so
/// that an app's change and its outbox item commit in one transaction.
package final class SQLiteOutboxStore: OutboxStore {
  package let database: any DatabaseWriter
  package let bodyFolder: URL?

  /// Opens (or creates) the outbox database at `path`, in WAL mode.
  package convenience init(path: String) throws {
    // An existing file is read first, by a connection that only reads: a file that is damaged, or was written by a
    // newer version, must be left as it is — opening the pool would switch it to WAL mode first.
    if FileManager.default.fileExists(atPath: path) {
      do {
        let probe = try DatabaseQueue(path: path)
        try probe.read { db in try Self.checkNotSuperseded(db, path: path) }
        try probe.close()
      } catch let error as OutboxError {
        throw error
      } catch {
        throw Self.storeError(error, path: path)
      }
    }
    let database: DatabasePool
    do {
      // Another process sharing the file (an app and its extension) may hold its lock for a moment, as may a
      // connection closing (its checkpoint): wait for it rather than fail.
      var configuration = GRDB.Configuration()
      configuration.busyMode = .timeout(5)
      database = try DatabasePool(path: path, configuration: configuration)
    } catch {
      throw Self.storeError(error, path: path)
    }
    try self.init(database: database, path: path)
  }

  /// Keeps the outbox's tables in `database`, migrating them first.
  package init(database: any DatabaseWriter, path: String? = nil) throws {
    self.database = database
    // Bodies kept in files go beside a database that is a file: `outbox.sqlite.bodies/`.
    let file = path ?? database.path
    bodyFolder =
      file.isEmpty || file.hasPrefix(":memory:") || file.hasPrefix("file::memory:")
      ? nil : URL(fileURLWithPath: file + ".bodies", isDirectory: true)
    do {
      // Read first: a database from a newer version must not be written to at all.
      try database.read { db in try Self.checkNotSuperseded(db, path: path) }
      try Self.migrator.migrate(database)
    } catch let error as OutboxError {
      throw error
    } catch {
      throw Self.storeError(error, path: path)
    }
  }

  // MARK: Writing

  package func insert(_ items: [NewItem]) async throws -> [OutboxItem.ID] {
    try await write { db in try items.map { try Self.insert($0, in: db) } }
  }

  /// Writes `item` in the caller's transaction.
  static func insert(_ item: NewItem, in db: Database) throws -> OutboxItem.ID {
    var request = item.request
    var bindings: Data?
    if !item.bindings.isEmpty, let after = item.after {
      // Its dependency may have its answer already: the values are bound now, or the enqueue says why they cannot be.
      if let answer = try answer(of: after, in: db) {
        request = try OutboxBinding.apply(item.bindings, from: answer, dependency: after, to: request)
      } else {
        bindings = try JSONEncoder().encode(item.bindings)
      }
    }
    // Cached statements: a batch compiles each once.
    let insert = try db.cachedStatement(
      sql: """
        INSERT INTO courier_outbox_item (lane, kind, kind_version, method, target, headers, body, body_length,
          body_digest, idempotency_key, after_id, if_dependency_fails, allows_expensive, allows_constrained,
          not_before, give_up_after, state, enqueued_at, next_attempt_at, updated_at, bindings, body_file)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)
        """)
    try insert.execute(
      arguments: [
        item.lane, item.kind, item.kindVersion, request.method.rawValue, request.target,
        FieldCoding.encode(request.headerFields), request.body, request.bodyLength, request.bodyDigest,
        request.idempotencyKey, item.after?.rawValue, item.constraints.ifDependencyFails.rawValue,
        item.constraints.allowsExpensiveNetwork, item.constraints.allowsConstrainedNetwork,
        item.constraints.notBefore?.timeIntervalSince1970, item.constraints.giveUpAfter?.timeIntervalSince1970,
        item.enqueuedAt.timeIntervalSince1970, item.enqueuedAt.timeIntervalSince1970,
        item.enqueuedAt.timeIntervalSince1970, bindings, request.bodyFile,
      ])
    let id = OutboxItem.ID(rawValue: db.lastInsertedRowID)
    // Every lane has a row, so that finding the lanes' first items is one index lookup per lane.
    try db.cachedStatement(sql: "INSERT OR IGNORE INTO courier_outbox_lane (name) VALUES (?)")
      .execute(arguments: [item.lane])
    return id
  }

  package func claimHeads(_ ids: [OutboxItem.ID]) async throws -> [Claim] {
    guard !ids.isEmpty else { return [] }
    return try await write { db in
      var claims: [Claim] = []
      var seen: Set<OutboxItem.ID> = []
      for id in ids where seen.insert(id).inserted {
        guard
          let lane = try String.fetchOne(
            db.cachedStatement(sql: "SELECT lane FROM courier_outbox_item WHERE id = ?"), arguments: [id.rawValue]),
          let head = try Self.laneHead(lane, in: db), head.item.id == id
        else { continue }
        claims.append(try Self.markSending(head, in: db))
      }
      return claims
    }
  }

  /// Marks `candidate`, just read in this transaction, sending: only its body is read again.
  static func markSending(_ candidate: Candidate, in db: Database) throws -> Claim {
    let id = candidate.item.id
    try db.cachedStatement(
      sql: "UPDATE courier_outbox_item SET state = 'sending', attempts = attempts + 1 WHERE id = ?"
    ).execute(arguments: [id.rawValue])
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(sql: "SELECT body, body_digest, body_file FROM courier_outbox_item WHERE id = ?"),
        arguments: [id.rawValue])
    else { throw OutboxError(.noSuchItem, "No outbox item \(id)") }
    let item = candidate.item.sending()
    return (item, request(of: item, body: row[0], digest: row[1], file: row[2]))
  }

  /// The stored request of `item`, with its body or the name of the file it is in.
  static func request(of item: OutboxItem, body: Data?, digest: String, file: String?) -> StoredRequest {
    StoredRequest(
      method: item.method, target: item.target, headerFields: item.headerFields, body: body, bodyFile: file,
      bodyLength: item.bodyLength, bodyDigest: digest, idempotencyKey: item.idempotencyKey)
  }

  package func recordDeliveries(
    _ deliveries: [Delivery], lane: String, at date: Date, claimingUpTo limit: Int,
    claimingNextIf claim: @escaping @Sendable (Candidate) -> Bool
  ) async throws -> (RecordResult, [Claim]) {
    guard !deliveries.isEmpty else { return (RecordResult(), []) }
    return try await write { db in
      let now = date.timeIntervalSince1970
      var recorded = RecordResult()
      for delivery in deliveries { try Self.recordAnswer(delivery.response, for: delivery.id, at: now, in: db) }
      // One look for the run's dependants that bind values, instead of one for each delivery.
      let binding = try Self.itemsWithBindingDependants(among: deliveries.map(\.id), in: db)
      for delivery in deliveries where binding.contains(delivery.id) {
        recorded.add(try Self.bind(dependantsOf: delivery.id, to: delivery.response, at: now, in: db))
      }
      return (recorded, try Self.claimRun(of: lane, upTo: limit, in: db, ifEach: claim))
    }
  }

  /// Of `ids`, those that waiting items depend on to bind values: one range of the dependency index for all of them.
  static func itemsWithBindingDependants(among ids: [OutboxItem.ID], in db: Database) throws -> Set<OutboxItem.ID> {
    guard let low = ids.map(\.rawValue).min(), let high = ids.map(\.rawValue).max() else { return [] }
    let wanted = Set(ids)
    let found = try Int64.fetchAll(
      db.cachedStatement(
        sql: """
          SELECT DISTINCT after_id FROM courier_outbox_item
          WHERE after_id BETWEEN ? AND ? AND bindings IS NOT NULL AND state IN ('pending', 'sending')
          """), arguments: [low, high])
    return Set(found.map(OutboxItem.ID.init(rawValue:))).intersection(wanted)
  }

  /// A lane's first `limit` waiting items, in order, each with its dependency's state and its body, unless the lane is
  /// paused (as ``laneHead(_:in:)`` reads the first).
  private static let laneRunWithBodiesQuery = """
    SELECT \(itemColumnsOfI), d.state, i.body, i.body_digest, i.body_file FROM courier_outbox_item i
    LEFT JOIN courier_outbox_item d ON d.id = i.after_id
    WHERE i.lane = ? AND i.state IN ('pending', 'sending')
    AND NOT EXISTS (SELECT 1 FROM courier_outbox_lane WHERE name = ? AND paused_reason IS NOT NULL)
    ORDER BY i.id LIMIT ?
    """

  /// Marks `lane`'s first waiting items sending while `claim` takes each, up to `limit`, in one statement: those
  /// claimed are the lane's waiting items up to the last one claimed, read with their bodies in one query.
  static func claimRun(
    of lane: String, upTo limit: Int, in db: Database, ifEach claim: (Candidate) -> Bool
  ) throws -> [Claim] {
    guard limit > 0 else { return [] }
    var claims: [Claim] = []
    // A cursor's rows are read from the statement as they come, not copied into values first; the cursor is gone,
    // its statement reset, before the update below.
    do {
      let rows = try Row.fetchCursor(
        db.cachedStatement(sql: laneRunWithBodiesQuery), arguments: [lane, lane, limit])
      while let row = try rows.next() {
        let next = try candidate(row)
        guard claim(next) else { break }
        let item = next.item.sending()
        let body = dependencyStateColumn + 1
        claims.append((item, request(of: item, body: row[body], digest: row[body + 1], file: row[body + 2])))
      }
    }
    guard let last = claims.last?.item.id else { return [] }
    try db.cachedStatement(
      sql: """
        UPDATE courier_outbox_item SET state = 'sending', attempts = attempts + 1
        WHERE lane = ? AND state IN ('pending', 'sending') AND id <= ?
        """
    ).execute(arguments: [lane, last.rawValue])
    guard db.changesCount == claims.count else {
      throw OutboxError(.storeFailure, "The lane \(lane)'s claimed items changed while they were claimed")
    }
    return claims
  }

  package func record(
    _ record: AttemptRecord, for id: OutboxItem.ID, lane: String, at date: Date, ifAttempt attempt: Int?
  ) async throws -> RecordResult {
    try await write { db in
      if let attempt {
        let latest = try Row.fetchOne(
          db, sql: "SELECT attempts FROM courier_outbox_item WHERE id = ? AND state = 'sending'",
          arguments: [id.rawValue])
        guard let latest, latest[0] as Int == attempt else {
          throw OutboxError(.noSuchItem, "The outbox item \(id) is no longer sending its attempt \(attempt)")
        }
      }
      return try Self.record(record, for: id, lane: lane, at: date.timeIntervalSince1970, in: db)
    }
  }

  static func record(
    _ record: AttemptRecord, for id: OutboxItem.ID, lane: String, at now: TimeInterval, in db: Database
  ) throws -> RecordResult {
    switch record {
    case .delivered(let response):
      return try Self.recordDelivery(response, for: id, at: now, in: db)
    case .retry(let at, let heldUntil, let reason):
      try db.execute(
        sql: """
          UPDATE courier_outbox_item SET state = 'pending', next_attempt_at = ?, held_until = ?, updated_at = ?,
            reason = ?, handed_off_at = NULL WHERE id = ?
          """,
        arguments: [at.timeIntervalSince1970, heldUntil?.timeIntervalSince1970, now, reason, id.rawValue])
    case .pauseLane(let reason):
      try db.execute(
        sql: """
          UPDATE courier_outbox_item SET state = 'pending', updated_at = ?, reason = ?, handed_off_at = NULL
          WHERE id = ?
          """,
        arguments: [now, reason, id.rawValue])
      try Self.setLane(lane, pausedBecause: reason, in: db)
    case .cut(let reason):
      try db.execute(
        sql: """
          UPDATE courier_outbox_item SET state = 'pending', attempts = MAX(attempts - 1, 0), updated_at = ?,
            reason = ?, handed_off_at = NULL WHERE id = ?
          """,
        arguments: [now, reason, id.rawValue])
    case .deadLetter(let reason, let response):
      try db.execute(
        sql: """
          UPDATE courier_outbox_item SET state = 'deadLetter', updated_at = ?, reason = ?, response_status = ?,
            response_headers = ?, response_body = ?, result_handled = 0, handed_off_at = NULL WHERE id = ?
          """,
        arguments: [
          now, reason, response?.status.code, response.map { FieldCoding.encode($0.headerFields) },
          response?.body, id.rawValue,
        ])
    }
    return RecordResult()
  }

  /// Records that `id` was delivered with `response`, and binds its dependants' values.
  static func recordDelivery(
    _ response: RecordedResponse, for id: OutboxItem.ID, at now: TimeInterval, in db: Database
  ) throws -> RecordResult {
    try recordAnswer(response, for: id, at: now, in: db)
    return try bind(dependantsOf: id, to: response, at: now, in: db)
  }

  /// Records that `id` was delivered with `response`; its dependants are left to ``bind(dependantsOf:to:at:in:)``.
  static func recordAnswer(
    _ response: RecordedResponse, for id: OutboxItem.ID, at now: TimeInterval, in db: Database
  ) throws {
    // Cached statements: a delivery is the hot path of a drain, and compiling a statement costs more than running it.
    try db.cachedStatement(
      sql: """
        UPDATE courier_outbox_item SET state = 'delivered', updated_at = ?, reason = NULL, response_status = ?,
          response_headers = ?, response_body = ?, body = NULL, body_file = NULL, result_handled = 0,
          handed_off_at = NULL WHERE id = ?
        """
    ).execute(arguments: [
      now, response.status.code, FieldCoding.encode(response.headerFields), response.body, id.rawValue,
    ])
  }

  /// The recorded answer of `id`, once it was delivered.
  static func answer(of id: OutboxItem.ID, in db: Database) throws -> RecordedResponse? {
    guard
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT response_status, response_headers, response_body FROM courier_outbox_item
          WHERE id = ? AND state = 'delivered'
          """, arguments: [id.rawValue]),
      let status = row["response_status"] as Int?
    else { return nil }
    return RecordedResponse(
      status: HTTPResponse.Status(code: status), headerFields: try FieldCoding.decode(row["response_headers"]),
      body: row["response_body"] ?? Data())
  }

  /// Writes the values `response` holds into the waiting dependants of `id` that bind them; a dependant whose value
  /// is missing becomes a dead letter.
  static func bind(
    dependantsOf id: OutboxItem.ID, to response: RecordedResponse, at now: TimeInterval, in db: Database
  ) throws -> RecordResult {
    let rows = try Row.fetchAll(
      db.cachedStatement(
        sql: """
          SELECT \(itemColumns), bindings, body, body_digest, body_file FROM courier_outbox_item
          WHERE after_id = ? AND bindings IS NOT NULL AND state IN ('pending', 'sending')
          """), arguments: [id.rawValue])
    var failures: [BindingFailure] = []
    for row in rows {
      let dependant = OutboxItem.ID(rawValue: row[0])
      let bindings = try JSONDecoder().decode([OutboxBinding].self, from: row["bindings"] as Data)
      do {
        let bound = try OutboxBinding.apply(
          bindings, from: response, dependency: id,
          to: request(of: try item(row), body: row["body"], digest: row["body_digest"], file: row["body_file"]))
        try db.execute(
          sql: """
            UPDATE courier_outbox_item SET target = ?, headers = ?, body = ?, body_length = ?, body_digest = ?,
              bindings = NULL WHERE id = ?
            """,
          arguments: [
            bound.target, FieldCoding.encode(bound.headerFields), bound.body, bound.bodyLength,
            bound.bodyDigest, dependant.rawValue,
          ])
      } catch let error as OutboxError {
        try db.execute(
          sql: """
            UPDATE courier_outbox_item SET state = 'deadLetter', updated_at = ?, reason = ?, result_handled = 0
            WHERE id = ?
            """, arguments: [now, error.message, dependant.rawValue])
        failures.append(BindingFailure(id: dependant, error: error))
      }
    }
    return RecordResult(failures: failures, changedDependants: !rows.isEmpty)
  }

  package func transition(
    _ id: OutboxItem.ID, from: Set<OutboxItem.State>, to: OutboxItem.State, reason: String?, newKey: String?,
    at date: Date
  ) async throws -> Bool {
    try await write { db in
      let states = from.map(\.rawValue)
      let placeholders = databaseQuestionMarks(count: states.count)
      var arguments: StatementArguments = [to.rawValue, reason, date.timeIntervalSince1970]
      var sets = "state = ?, reason = ?, updated_at = ?, handed_off_at = NULL"
      // A cancelled item is never sent: its body file may go.
      if to == .cancelled { sets += ", body_file = NULL" }
      if let newKey {
        sets += ", idempotency_key = ?, attempts = 0, next_attempt_at = ?"
        arguments += [newKey, date.timeIntervalSince1970]
      }
      arguments += [id.rawValue]
      arguments += StatementArguments(states)
      try db.execute(
        sql: "UPDATE courier_outbox_item SET \(sets) WHERE id = ? AND state IN (\(placeholders))",
        arguments: arguments)
      return db.changesCount > 0
    }
  }

  package func cancelDependants(of id: OutboxItem.ID, reason: String, at date: Date) async throws -> [OutboxItem.ID] {
    try await write { db in
      var cancelled: [OutboxItem.ID] = []
      var frontier = [id.rawValue]
      // A chain of dependants fails one link after another.
      while let next = frontier.popLast() {
        let ids = try Int64.fetchAll(
          db,
          sql: """
            SELECT id FROM courier_outbox_item WHERE after_id = ? AND state IN ('pending', 'sending')
              AND if_dependency_fails = 'cancel'
            """, arguments: [next])
        for dependant in ids {
          try db.execute(
            sql: """
              UPDATE courier_outbox_item SET state = 'cancelled', reason = ?, updated_at = ?, body_file = NULL
              WHERE id = ?
              """,
            arguments: [reason, date.timeIntervalSince1970, dependant])
          cancelled.append(OutboxItem.ID(rawValue: dependant))
          frontier.append(dependant)
        }
      }
      return cancelled
    }
  }

  package func setLane(_ lane: String, pausedBecause reason: String?) async throws {
    try await write { db in try Self.setLane(lane, pausedBecause: reason, in: db) }
  }

  static func setLane(_ lane: String, pausedBecause reason: String?, in db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO courier_outbox_lane (name, paused_reason) VALUES (?, ?)
        ON CONFLICT(name) DO UPDATE SET paused_reason = excluded.paused_reason
        """, arguments: [lane, reason])
  }

  package func restartRetention(_ id: OutboxItem.ID, at date: Date) async throws {
    try await write { db in
      try db.execute(
        sql: "UPDATE courier_outbox_item SET enqueued_at = ? WHERE id = ?",
        arguments: [date.timeIntervalSince1970, id.rawValue])
    }
  }

  package func markHandedOff(_ id: OutboxItem.ID, at date: Date) async throws {
    try await write { db in
      try db.execute(
        sql: "UPDATE courier_outbox_item SET handed_off_at = ? WHERE id = ? AND state = 'sending'",
        arguments: [date.timeIntervalSince1970, id.rawValue])
    }
  }

  package func handedOffItems() async throws -> [(item: OutboxItem, bodyFile: String?)] {
    try await read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT \(Self.itemColumns), body_file FROM courier_outbox_item
          WHERE handed_off_at IS NOT NULL AND state = 'sending' ORDER BY id
          """
      ).map { (try Self.item($0), $0["body_file"]) }
    }
  }

  package func clearHandoff(_ id: OutboxItem.ID, attempt: Int) async throws {
    try await write { db in
      try db.execute(
        sql: "UPDATE courier_outbox_item SET handed_off_at = NULL WHERE id = ? AND attempts = ? AND state = 'sending'",
        arguments: [id.rawValue, attempt])
    }
  }

  package func referencedBodyFiles() async throws -> Set<String> {
    try await read { db in
      Set(try String.fetchAll(db, sql: "SELECT body_file FROM courier_outbox_item WHERE body_file IS NOT NULL"))
    }
  }

  package func markHandled(_ id: OutboxItem.ID) async throws {
    try await write { db in
      try db.execute(
        sql: "UPDATE courier_outbox_item SET result_handled = 1 WHERE id = ?", arguments: [id.rawValue])
    }
  }

  package func edit(_ id: OutboxItem.ID, request: StoredRequest, at date: Date) async throws -> Bool {
    try await write { db in
      try db.execute(
        sql: """
          UPDATE courier_outbox_item SET headers = ?, body = ?, body_file = ?, body_length = ?, body_digest = ?,
            idempotency_key = ?, attempts = 0, updated_at = ?, next_attempt_at = ?
          WHERE id = ? AND state = 'pending'
          """,
        arguments: [
          FieldCoding.encode(request.headerFields), request.body, request.bodyFile, request.bodyLength,
          request.bodyDigest,
          request.idempotencyKey, date.timeIntervalSince1970, date.timeIntervalSince1970, id.rawValue,
        ])
      return db.changesCount > 0
    }
  }

  // MARK: Access

  func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    do {
      return try await database.write(body)
    } catch let error as OutboxError {
      throw error
    } catch {
      throw Self.storeError(error, path: nil)
    }
  }

  func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    do {
      return try await database.read(body)
    } catch let error as OutboxError {
      throw error
    } catch {
      throw Self.storeError(error, path: nil)
    }
  }

  /// The typed error for what the database threw: a corrupt file, or another failure.
  static func storeError(_ error: any Error, path: String?) -> OutboxError {
    let place = path.map { " at \($0)" } ?? ""
    if let error = error as? DatabaseError, [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
      return OutboxError(
        .corruptStore,
        "The outbox database\(place) cannot be read (\(error.message ?? "\(error)")); it is left as it is")
    }
    return OutboxError(.storeFailure, "The outbox database\(place) failed: \(error)")
  }
}
#endif
