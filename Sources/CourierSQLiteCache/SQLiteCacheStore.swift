import Courier
import Foundation
import GRDB
import HTTPTypes

/// A persistent, crash-safe `CacheStore` in a SQLite database (WAL mode), bounded in bytes with least recently
/// used eviction.
///
/// Bodies are kept in chunks, so a large response is written and read a chunk at a time
/// (``store(_:bodyChunks:)``, ``bodyStream(key:variantKey:)``). An entry becomes visible only when its last chunk is
/// committed: a crash, even `kill -9`, in the middle of a write leaves a database that opens and never serves a
/// partial entry (unfinished entries are removed when the store opens).
///
/// A hit on an entry whose body fits in one chunk is one prepared statement, run on the calling thread: in WAL mode
/// a read never waits for a writer, and it costs less than handing the work to GRDB's queue and back. Larger bodies
/// are read on GRDB's queue inside a read transaction.
///
/// ```swift
/// let store = try SQLiteCacheStore(url: cachesDirectory.appendingPathComponent("api-cache.sqlite"),
///                                  byteLimit: 50 * 1024 * 1024)
/// let client = APIClient(baseURL: url) { $0.interceptors = [CacheInterceptor(store: store)] }
/// ```
public final class SQLiteCacheStore: CacheStore {
  /// The most bytes kept; the least recently used entries are evicted past it.
  public let byteLimit: Int
  /// The size of the chunks bodies are stored in.
  public let chunkSize: Int
  let pool: DatabasePool
  let accesses = AccessLog()

  /// Opens (or creates) the store at `url`.
  ///
  /// - Parameters:
  ///   - url: The database file.
  ///   - byteLimit: The most bytes kept (50 MiB by default).
  ///   - chunkSize: The size of body chunks (256 KiB by default).
  public init(url: URL, byteLimit: Int = 50 * 1024 * 1024, chunkSize: Int = 256 * 1024) throws {
    self.byteLimit = byteLimit
    self.chunkSize = max(chunkSize, 1024)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    do {
      pool = try DatabasePool(path: url.path, configuration: configuration)
      try pool.write { db in
        try Schema.create(in: db)
        try db.execute(sql: "DELETE FROM entry WHERE complete = 0")
      }
    } catch {
      throw CourierError(
        .transport, "The cache database at \(url.path) could not be opened: \(error)", underlyingError: error)
    }
  }

  /// The complete variants for `key`, most recently stored first.
  public func entries(for key: String) async throws -> [CachedResponse] {
    // The common case, a body in one chunk, is one indexed statement, which needs no transaction (it sees one
    // snapshot) and runs on the calling thread: in WAL mode a read never waits for a writer, and a hop to GRDB's
    // queue and back costs more than the read itself. Anything larger is read again, asynchronously, inside a
    // transaction.
    var found = try singleStatementEntries(for: key)
    if found == nil {
      found = try await pool.read { db in try Schema.entries(for: key, in: db, inTransaction: true) }
    }
    let entries = found ?? []
    for (id, _) in entries { accesses.record(id) }
    return entries.map(\.entry)
  }

  /// Stores `entry` in one transaction, replacing its key and variant, then evicts down to the byte limit.
  public func store(_ entry: CachedResponse) async throws {
    let chunks = stride(from: 0, to: entry.body.count, by: chunkSize).map {
      entry.body.subdata(in: $0..<min($0 + chunkSize, entry.body.count))
    }
    let touched = accesses.drain()
    try await pool.write { [self] db in
      try Schema.applyAccesses(touched, in: db)
      let id = try Schema.insertHead(entry, size: entry.size, in: db)
      for (index, chunk) in chunks.enumerated() { try Schema.insertChunk(id: id, seq: index, data: chunk, in: db) }
      try Schema.complete(id: id, key: entry.key, variantKey: entry.variantKey, in: db)
      try evict(in: db)
    }
  }

  /// Stores an entry whose body arrives as `bodyChunks`, a chunk per transaction, so a large body never sits in
  /// memory; the entry becomes visible only after the last chunk. `head.body` is ignored.
  public func store<Chunks: AsyncSequence>(_ head: CachedResponse, bodyChunks: Chunks) async throws
  where Chunks.Element == Data {
    var pendingHead = head
    pendingHead.body = Data()
    let pending = pendingHead
    let id = try await pool.write { db in try Schema.insertHead(pending, size: pending.size, in: db) }
    var sequence = 0
    var total = 0
    var buffer = Data()
    do {
      for try await chunk in bodyChunks {
        buffer.append(chunk)
        while buffer.count >= chunkSize {
          let piece = buffer.prefix(chunkSize)
          buffer.removeFirst(piece.count)
          try await write(Data(piece), id: id, seq: sequence)
          sequence += 1
          total += piece.count
        }
      }
      if !buffer.isEmpty {
        try await write(buffer, id: id, seq: sequence)
        total += buffer.count
      }
      let size = pending.size + total
      try await pool.write { [self] db in
        try db.execute(sql: "UPDATE entry SET size = ? WHERE id = ?", arguments: [size, id])
        try Schema.complete(id: id, key: head.key, variantKey: head.variantKey, in: db)
        try evict(in: db)
      }
    } catch {
      _ = try? await pool.write { db in try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [id]) }
      throw error
    }
  }

  /// The body of a stored entry as a stream of chunks read one at a time, or `nil` when it is not stored.
  public func bodyStream(key: String, variantKey: String = "") async throws -> BodyStream? {
    // The entry's id alone (a `Row` is not `Sendable`), so that GRDB's asynchronous read is the one chosen.
    let found: Int64? = try await pool.read { db in
      try Int64.fetchOne(
        db, sql: "SELECT id FROM entry WHERE key = ? AND variant = ? AND complete = 1 ORDER BY id DESC LIMIT 1",
        arguments: [key, variantKey])
    }
    guard let id = found else { return nil }
    let count = try await pool.read { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunk WHERE entry_id = ?", arguments: [id]) ?? 0
    }
    let chunks = ChunkReader(pool: pool, entryID: id, count: count)
    let bytes = try await pool.read { db in
      try Int64.fetchOne(
        db, sql: "SELECT COALESCE(SUM(LENGTH(data)), 0) FROM chunk WHERE entry_id = ?", arguments: [id]) ?? 0
    }
    return BodyStream(chunks, length: bytes, isRepeatable: true)
  }

  /// Removes every variant for `key`.
  public func removeEntries(for key: String) async throws {
    try await pool.write { db in try db.execute(sql: "DELETE FROM entry WHERE key = ?", arguments: [key]) }
  }

  /// Removes everything.
  public func removeAll() async throws {
    try await pool.write { db in try db.execute(sql: "DELETE FROM entry") }
  }

  /// Removes entries that expired more than `grace` seconds before `now`; returns how many.
  @discardableResult
  public func removeExpired(now: Date = Date(), grace: TimeInterval = 0) async throws -> Int {
    try await pool.write { db in
      try db.execute(
        sql: "DELETE FROM entry WHERE expires_at < ?", arguments: [now.timeIntervalSince1970 - grace])
      return db.changesCount
    }
  }

  /// The bytes stored in complete entries.
  public func totalBytes() async throws -> Int {
    try await pool.read { db in try Schema.totalBytes(in: db) }
  }

  /// The number of complete entries.
  public func count() async throws -> Int {
    try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE complete = 1") ?? 0 }
  }

  /// ``Schema/entries(for:in:inTransaction:)`` without a transaction, on the calling thread.
  private func singleStatementEntries(for key: String) throws -> [(id: Int64, entry: CachedResponse)]? {
    try pool.unsafeRead { db in try Schema.entries(for: key, in: db, inTransaction: false) }
  }

  private func write(_ data: Data, id: Int64, seq: Int) async throws {
    try await pool.write { db in try Schema.insertChunk(id: id, seq: seq, data: data, in: db) }
  }

  /// Deletes least recently used complete entries until the total is within the limit.
  ///
  /// The total is a running sum kept by triggers, and victims are read from the `last_access` index one at a time,
  /// so a write that evicts one entry costs a few index steps however many entries are stored.
  private func evict(in db: Database) throws {
    var total = try Schema.totalBytes(in: db)
    guard total > byteLimit else { return }
    var victims: [Int64] = []
    let oldest = try Row.fetchCursor(
      db.cachedStatement(sql: "SELECT id, size FROM entry WHERE complete = 1 ORDER BY last_access, id"))
    while total > byteLimit, let victim = try oldest.next() {
      victims.append(victim[0])
      total -= victim[1] as Int
    }
    let delete = try db.cachedStatement(sql: "DELETE FROM entry WHERE id = ?")
    for id in victims { try delete.execute(arguments: [id]) }
  }
}

extension SQLiteCacheStore {
  /// Every key with a complete entry (for tools and tests).
  package func keys() async throws -> [String] {
    try await pool.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT key FROM entry WHERE complete = 1") }
  }

  /// Rows of entries that were never completed.
  package func incompleteCount() async throws -> Int {
    try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE complete = 0") ?? 0 }
  }

  /// SQLite's own consistency check: `["ok"]` when the file is sound.
  package func integrityCheck() async throws -> [String] {
    try await pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
  }

  /// The journal mode, `wal` for this store.
  package func journalMode() async throws -> String {
    try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
  }
}
