import Courier
import Foundation
import GRDB
import HTTPTypes

/// The tables and row conversions of ``SQLiteCacheStore``.
enum Schema {
  static func create(in db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE IF NOT EXISTS entry (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          key TEXT NOT NULL,
          variant TEXT NOT NULL,
          variant_json BLOB NOT NULL,
          status INTEGER NOT NULL,
          reason TEXT NOT NULL,
          headers BLOB NOT NULL,
          request_time REAL NOT NULL,
          response_time REAL NOT NULL,
          expires_at REAL NOT NULL,
          size INTEGER NOT NULL,
          last_access REAL NOT NULL,
          complete INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX IF NOT EXISTS entry_key ON entry(key, variant);
        CREATE INDEX IF NOT EXISTS entry_access ON entry(last_access);
        CREATE TABLE IF NOT EXISTS chunk (
          entry_id INTEGER NOT NULL REFERENCES entry(id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          data BLOB NOT NULL,
          PRIMARY KEY (entry_id, seq)
        );
        CREATE TABLE IF NOT EXISTS totals (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          bytes INTEGER NOT NULL
        );
        INSERT OR IGNORE INTO totals (id, bytes)
          VALUES (1, (SELECT COALESCE(SUM(size), 0) FROM entry WHERE complete = 1));
        CREATE TRIGGER IF NOT EXISTS entry_bytes_insert AFTER INSERT ON entry WHEN NEW.complete = 1 BEGIN
          UPDATE totals SET bytes = bytes + NEW.size WHERE id = 1;
        END;
        CREATE TRIGGER IF NOT EXISTS entry_bytes_delete AFTER DELETE ON entry WHEN OLD.complete = 1 BEGIN
          UPDATE totals SET bytes = bytes - OLD.size WHERE id = 1;
        END;
        CREATE TRIGGER IF NOT EXISTS entry_bytes_update AFTER UPDATE OF size, complete ON entry BEGIN
          UPDATE totals
          SET bytes = bytes - (CASE WHEN OLD.complete = 1 THEN OLD.size ELSE 0 END)
                            + (CASE WHEN NEW.complete = 1 THEN NEW.size ELSE 0 END)
          WHERE id = 1;
        END;
        """)
  }

  /// The bytes in complete entries, kept up to date by triggers, so reading it costs nothing however many entries
  /// there are.
  static func totalBytes(in db: Database) throws -> Int {
    try Int.fetchOne(db.cachedStatement(sql: "SELECT bytes FROM totals WHERE id = 1")) ?? 0
  }

  static func insertHead(_ entry: CachedResponse, size: Int, in db: Database) throws -> Int64 {
    let headers = HeadCoding.encode(entry)
    let variant = try JSONEncoder().encode(entry.variant)
    try db.execute(
      sql: """
        INSERT INTO entry (key, variant, variant_json, status, reason, headers, request_time, response_time, expires_at,
                           size, last_access, complete)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
        """,
      arguments: [
        entry.key, entry.variantKey, variant, entry.response.status.code, entry.response.status.reasonPhrase, headers,
        entry.requestTime.timeIntervalSince1970, entry.responseTime.timeIntervalSince1970,
        entry.expirationDate.timeIntervalSince1970, size, Date().timeIntervalSince1970,
      ])
    return db.lastInsertedRowID
  }

  static func insertChunk(id: Int64, seq: Int, data: Data, in db: Database) throws {
    try db.execute(sql: "INSERT INTO chunk (entry_id, seq, data) VALUES (?, ?, ?)", arguments: [id, seq, data])
  }

  /// Makes entry `id` visible and removes the older entry with the same key and variant.
  static func complete(id: Int64, key: String, variantKey: String, in db: Database) throws {
    try db.execute(
      sql: "DELETE FROM entry WHERE key = ? AND variant = ? AND id != ?", arguments: [key, variantKey, id])
    try db.execute(sql: "UPDATE entry SET complete = 1 WHERE id = ?", arguments: [id])
  }

  static func applyAccesses(_ accesses: [Int64: Double], in db: Database) throws {
    for (id, time) in accesses {
      try db.execute(sql: "UPDATE entry SET last_access = ? WHERE id = ?", arguments: [time, id])
    }
  }

  /// The complete entries for `key`, newest first, with their row ids.
  ///
  /// One statement reads every head with its first chunk; it sees one snapshot of the database, so it needs no
  /// transaction. When an entry has more chunks, or a head in the older form, `nil` comes back unless
  /// `inTransaction` says the caller holds a read transaction, which keeps the further queries consistent with the
  /// first (a concurrent write can never show a head with part of its body).
  static func entries(
    for key: String, in db: Database, inTransaction: Bool
  ) throws -> [(
    id: Int64, entry: CachedResponse
  )]? {
    let heads = try db.cachedStatement(
      sql: """
        SELECT e.id, e.headers, c.data, EXISTS (SELECT 1 FROM chunk WHERE entry_id = e.id AND seq = 1)
        FROM entry e LEFT JOIN chunk c ON c.entry_id = e.id AND c.seq = 0
        WHERE e.key = ? AND e.complete = 1
        ORDER BY e.id DESC
        """)
    var found: [(id: Int64, entry: CachedResponse)] = []
    let rows = try Row.fetchCursor(heads, arguments: [key])
    while let row = try rows.next() {
      let id: Int64 = row[0]
      let stored: Data = row[1]
      let moreChunks: Bool = row[3]
      var body: Data = row[2] ?? Data()
      let decoded = HeadCoding.decode(stored)
      guard inTransaction || (decoded != nil && !moreChunks) else { return nil }
      if moreChunks {
        let chunks = try db.cachedStatement(sql: "SELECT data FROM chunk WHERE entry_id = ? ORDER BY seq")
        body = try Data.fetchAll(chunks, arguments: [id]).reduce(into: Data()) { $0.append($1) }
      }
      guard let head = decoded ?? (try? legacyHead(id: id, headers: stored, in: db)) ?? nil else { continue }
      let response = HTTPResponse(status: head.status, headerFields: head.headerFields)
      found.append(
        (
          id,
          CachedResponse(
            key: key, variant: head.variant, response: response, body: body, requestTime: head.requestTime,
            responseTime: head.responseTime)
        ))
    }
    return found
  }

  /// The head of a row written before ``HeadCoding``: JSON header pairs and the other columns.
  private static func legacyHead(id: Int64, headers: Data, in db: Database) throws -> HeadCoding.Head? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT variant_json, status, reason, request_time, response_time FROM entry WHERE id = ?",
        arguments: [id])
    else { return nil }
    let pairs = try JSONDecoder().decode([[String]].self, from: headers)
    var fields = HTTPFields()
    for pair in pairs where pair.count == 2 {
      guard let name = HTTPField.Name(pair[0]) else { continue }
      fields.append(HTTPField(name: name, value: pair[1]))
    }
    return HeadCoding.Head(
      status: HTTPResponse.Status(code: row[1], reasonPhrase: row[2]), headerFields: fields,
      variant: try JSONDecoder().decode([String: String].self, from: row[0] as Data),
      requestTime: Date(timeIntervalSince1970: row[3]), responseTime: Date(timeIntervalSince1970: row[4]))
  }
}

/// Reads the chunks of one entry lazily, one query per chunk.
struct ChunkReader: AsyncSequence, Sendable {
  typealias Element = Data
  let pool: DatabasePool
  let entryID: Int64
  let count: Int

  struct AsyncIterator: AsyncIteratorProtocol {
    let reader: ChunkReader
    var seq = 0

    mutating func next() async throws -> Data? {
      guard seq < reader.count else { return nil }
      let (id, index) = (reader.entryID, seq)
      seq += 1
      let data = try await reader.pool.read { db in
        try Data.fetchOne(db, sql: "SELECT data FROM chunk WHERE entry_id = ? AND seq = ?", arguments: [id, index])
      }
      guard let data else { throw CourierError(.transport, "A cached body chunk disappeared while it was read") }
      return data
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: self) }
}

/// Reads since the last write, applied in the next write transaction (so hits cost no write).
final class AccessLog: Sendable {
  private let pending = Locked<[Int64: Double]>([:])

  func record(_ id: Int64) {
    let now = Date().timeIntervalSince1970
    pending.withLock { $0[id] = now }
  }

  func drain() -> [Int64: Double] {
    pending.withLock { pending in
      defer { pending = [:] }
      return pending
    }
  }
}
