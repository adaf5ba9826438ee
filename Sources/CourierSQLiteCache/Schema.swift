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
        """)
  }

  static func insertHead(_ entry: CachedResponse, size: Int, in db: Database) throws -> Int64 {
    let headers = try JSONEncoder().encode(entry.response.headerFields.map { [$0.name.rawName, $0.value] })
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

  static func entry(from row: Row, body: Data) throws -> CachedResponse? {
    let pairs = try JSONDecoder().decode([[String]].self, from: row["headers"] as Data)
    var fields = HTTPFields()
    for pair in pairs where pair.count == 2 {
      guard let name = HTTPField.Name(pair[0]) else { continue }
      fields.append(HTTPField(name: name, value: pair[1]))
    }
    let variant = try JSONDecoder().decode([String: String].self, from: row["variant_json"] as Data)
    let status = HTTPResponse.Status(code: row["status"], reasonPhrase: row["reason"])
    return CachedResponse(
      key: row["key"], variant: variant, response: HTTPResponse(status: status, headerFields: fields), body: body,
      requestTime: Date(timeIntervalSince1970: row["request_time"]),
      responseTime: Date(timeIntervalSince1970: row["response_time"]))
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
  private let lock = NSLock()
  nonisolated(unsafe) private var pending: [Int64: Double] = [:]  // guarded by `lock`

  func record(_ id: Int64) {
    let now = Date().timeIntervalSince1970
    lock.withLock { pending[id] = now }
  }

  func drain() -> [Int64: Double] {
    lock.withLock {
      defer { pending = [:] }
      return pending
    }
  }
}
