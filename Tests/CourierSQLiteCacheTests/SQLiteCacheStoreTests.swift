import Courier
import CourierTestSupport
import Foundation
import GRDB
import HTTPTypes
import Testing

@testable import CourierSQLiteCache

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cache database in a fresh temporary folder.
func temporaryCacheDatabase() throws -> URL {
  URL(fileURLWithPath: try temporaryDatabase(named: "cache.sqlite").path)
}

func cached(_ key: String, bytes: Int, variant: [String: String] = [:], maxAge: Int = 600) -> CachedResponse {
  CachedResponse(
    key: key, variant: variant,
    response: HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=\(maxAge)", .eTag: "\"\(key)\""]),
    body: patternData(count: bytes), requestTime: Date(), responseTime: Date())
}

@Suite struct SQLiteCacheStoreTests {
  @Test func storesReadsAndSurvivesAProcessRestartInWALMode() async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    do {
      let store = try SQLiteCacheStore(url: url)
      #expect(try await store.journalMode() == "wal")
      try await store.store(cached("https://a.test/1", bytes: 700_000))
      try await store.store(cached("https://a.test/v", bytes: 10, variant: ["accept-language": "fr"]))
      try await store.store(cached("https://a.test/v", bytes: 20, variant: ["accept-language": "de"]))
    }
    let reopened = try SQLiteCacheStore(url: url)
    let entry = try #require(try await reopened.entries(for: "https://a.test/1").first)
    #expect(entry.body == cached("https://a.test/1", bytes: 700_000).body)
    #expect(entry.response.headerFields[.eTag] == "\"https://a.test/1\"")
    #expect(entry.response.status == .ok)
    let variants = try await reopened.entries(for: "https://a.test/v")
    #expect(Set(variants.map { $0.variant["accept-language"] ?? "" }) == ["fr", "de"])
    try await reopened.store(cached("https://a.test/v", bytes: 30, variant: ["accept-language": "fr"]))
    #expect(try await reopened.entries(for: "https://a.test/v").map(\.body.count).sorted() == [20, 30])
  }

  @Test func evictsLeastRecentlyUsedUnderTheByteLimit() async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try SQLiteCacheStore(url: url, byteLimit: 35_000)
    for index in 1...3 { try await store.store(cached("k\(index)", bytes: 10_000)) }
    try await Task.sleep(for: .milliseconds(20))
    _ = try await store.entries(for: "k1")
    try await store.store(cached("k4", bytes: 10_000))
    #expect(try await store.entries(for: "k2").isEmpty, "k2 was least recently used")
    #expect(try await store.entries(for: "k1").count == 1)
    #expect(try await store.totalBytes() <= 35_000)
    #expect(try await store.count() == 3)
  }

  /// The running total the triggers keep equals the sum of the complete entries after every kind of change,
  /// including a streamed write and a database written before the total existed.
  @Test func theRunningTotalMatchesTheStoredEntries() async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    func summed(_ store: SQLiteCacheStore) async throws -> Int {
      try await store.pool.read { db in
        try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM entry WHERE complete = 1") ?? 0
      }
    }
    do {
      let store = try SQLiteCacheStore(url: url, byteLimit: 60_000, chunkSize: 4_096)
      for index in 0..<12 { try await store.store(cached("k\(index % 7)", bytes: 3_000 + index * 500)) }
      #expect(try await store.totalBytes() == (try await summed(store)))
      let chunks = AsyncStream<Data> { continuation in
        for _ in 0..<5 { continuation.yield(Data(count: 5_000)) }
        continuation.finish()
      }
      try await store.store(cached("streamed", bytes: 0), bodyChunks: chunks)
      #expect(try await store.totalBytes() == (try await summed(store)))
      #expect(try await store.totalBytes() <= 60_000)
      try await store.removeEntries(for: "k3")
      _ = try await store.removeExpired(now: Date().addingTimeInterval(3_600))
      #expect(try await store.totalBytes() == (try await summed(store)))
      try await store.store(cached("again", bytes: 1_000))
      try await store.pool.write { db in try db.execute(sql: "DROP TABLE totals") }
    }
    let reopened = try SQLiteCacheStore(url: url, byteLimit: 60_000)
    #expect(try await reopened.totalBytes() == (try await summed(reopened)))
    #expect(try await reopened.totalBytes() > 0)
    try await reopened.removeAll()
    #expect(try await reopened.totalBytes() == 0)
  }

  /// Eviction reads victims from the `last_access` index instead of sorting every entry.
  @Test func evictionWalksTheAccessIndex() async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try SQLiteCacheStore(url: url)
    let plan = try await store.pool.read { db in
      try Row.fetchAll(
        db, sql: "EXPLAIN QUERY PLAN SELECT id, size FROM entry WHERE complete = 1 ORDER BY last_access, id"
      ).map { $0["detail"] as String }
    }
    #expect(plan.contains { $0.contains("entry_access") }, "\(plan)")
    #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
  }

  @Test func expiredEntriesAreCleanedUpAndRemoveAllEmptiesTheStore() async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try SQLiteCacheStore(url: url)
    try await store.store(cached("short", bytes: 10, maxAge: 1))
    try await store.store(cached("long", bytes: 10, maxAge: 3600))
    #expect(try await store.removeExpired(now: Date().addingTimeInterval(60)) == 1)
    #expect(try await store.keys() == ["long"])
    try await store.removeEntries(for: "long")
    try await store.store(cached("x", bytes: 10))
    try await store.removeAll()
    #expect(try await store.count() == 0)
  }

  @Test func largeBodiesStreamInAndOutAChunkAtATime() async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try SQLiteCacheStore(url: url, byteLimit: 200 * 1024 * 1024, chunkSize: 1024 * 1024)
    let size = 48 * 1024 * 1024
    let chunks = AsyncStream<Data> { continuation in
      var offset = 0
      while offset < size {
        continuation.yield(Data(repeating: UInt8(offset / (1024 * 1024) % 251), count: 512 * 1024))
        offset += 512 * 1024
      }
      continuation.finish()
    }
    try await store.store(cached("big", bytes: 0), bodyChunks: chunks)
    let body = try #require(try await store.bodyStream(key: "big"))
    #expect(body.length == Int64(size))
    var total = 0
    var largest = 0
    var chunkIndex = 0
    for try await chunk in body {
      #expect(chunk.first == UInt8(chunkIndex % 251))
      total += chunk.count
      largest = max(largest, chunk.count)
      chunkIndex += 1
    }
    #expect(total == size)
    #expect(largest == 1024 * 1024, "read back a chunk at a time")
  }

  @Test func anUnopenableDatabaseIsATypedError() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("cache.sqlite")
    try Data("this is not a database, just text that is long enough to have a header".utf8).write(to: file)
    #expect(throws: CourierError.self) { try SQLiteCacheStore(url: file) }
  }
}

@Suite struct SQLiteCrashTests {
  /// The writer executable built next to the test bundle.
  static var writer: URL? {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
    ]
    return candidates.map { $0.appendingPathComponent("CourierCacheWriter") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  @Test func killDashNineDuringWritesLeavesAStoreThatOpensAndNeverServesAPartialEntry() async throws {
    let writer = try #require(Self.writer, "CourierCacheWriter is built with the tests")
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    for round in 0..<3 {
      var ends: [Int32] = [0, 0]
      #expect(pipe(&ends) == 0)
      let process = try ChildProcess.start(writer.path, [url.path], output: ends[1])
      close(ends[1])
      // Blocking reads and waits run on a dispatch thread: the cooperative pool has only two threads here.
      let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
      let ready = await offThePool { reader.availableData }
      #expect(String(decoding: ready, as: UTF8.self).contains("ready"), "round \(round)")
      try await Task.sleep(for: .milliseconds(150 + round * 100))
      process.kill(SIGKILL)
      let ended = await process.wait()
      #expect(ended == .signalled(SIGKILL))

      let store = try SQLiteCacheStore(url: url, byteLimit: 64 * 1024 * 1024)
      #expect(try await store.integrityCheck() == ["ok"])
      #expect(try await store.incompleteCount() == 0, "unfinished entries are removed on open")
      let keys = try await store.keys()
      #expect(keys.count >= 3)
      for key in keys {
        for entry in try await store.entries(for: key) {
          let expected = Int(entry.response.headerFields[.contentLength] ?? "") ?? -1
          #expect(entry.body.count == expected, "\(key) is whole")
          let sum = key.utf8.reduce(0) { $0 &+ Int($1) }
          let intact = entry.body.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: sum &+ $0.offset) }
          #expect(intact, "\(key) has its own bytes")
        }
      }
    }
  }
}

/// Runs blocking work on a dispatch thread so it does not hold one of the cooperative pool's few threads.
func offThePool<T>(_ work: @escaping () -> T) async -> T {
  nonisolated(unsafe) let work = work
  return await withCheckedContinuation { (continuation: CheckedContinuation<UncheckedBox<T>, Never>) in
    DispatchQueue.global().async { continuation.resume(returning: UncheckedBox(value: work())) }
  }.value
}

/// Carries a value across the dispatch hop above; the test reads it only after the work finished.
struct UncheckedBox<T>: @unchecked Sendable {
  let value: T
}

@Suite struct StoredHeadTests {
  @Test func headsRoundTripWithVariantsAndRepeatedFields() throws {
    let entry = CachedResponse(
      key: "https://a.test/x", variant: ["accept-language": "fr, de", "x-empty": ""],
      response: HTTPResponse(
        status: .init(code: 203, reasonPhrase: "Non-Authoritative"),
        headerFields: [
          .cacheControl: "max-age=5", .setCookie: "a=1", .setCookie: "b=2", HTTPField.Name("X-Custom")!: "ünï",
          .eTag: "",
        ]),
      body: Data("x".utf8), requestTime: Date(timeIntervalSince1970: 1_700_000_000.25),
      responseTime: Date(timeIntervalSince1970: 1_700_000_001.5))
    let head = try #require(HeadCoding.decode(HeadCoding.encode(entry)))
    #expect(head.status.code == 203)
    #expect(head.status.reasonPhrase == "Non-Authoritative")
    #expect(head.headerFields == entry.response.headerFields)
    #expect(head.headerFields[fields: .setCookie].map(\.value) == ["a=1", "b=2"])
    #expect(head.variant == entry.variant)
    #expect(head.requestTime == entry.requestTime)
    #expect(head.responseTime == entry.responseTime)
  }

  @Test func malformedHeadsAreNilNotACrash() {
    let good = HeadCoding.encode(cached("k", bytes: 1, variant: ["a": "b"]))
    #expect(HeadCoding.decode(good) != nil)
    for length in 0..<good.count {
      let decoded = HeadCoding.decode(Data(good.prefix(length)))
      if length < 22 { #expect(decoded == nil, "\(length) bytes") }
    }
    #expect(HeadCoding.decode(Data()) == nil)
    #expect(HeadCoding.decode(Data([2])) == nil)
    #expect(HeadCoding.decode(Data([2, 0xC8, 0])) == nil, "cut inside the times")
    #expect(HeadCoding.decode(Data("[[\"a\",\"b\"]]".utf8)) == nil, "the older JSON form")
    var badStatus = good
    badStatus[1] = 0
    badStatus[2] = 0
    #expect(HeadCoding.decode(badStatus) == nil)
    var noTerminator = good
    noTerminator.removeLast()
    #expect(HeadCoding.decode(noTerminator) == nil)
    var random = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      var bytes = [UInt8](good)
      bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      _ = HeadCoding.decode(Data(bytes))
    }
  }

  @Test func rowsInTheOlderFormAreStillRead() async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try SQLiteCacheStore(url: url)
    try await store.store(cached("https://a.test/old", bytes: 3_000, variant: ["accept": "text/plain"]))
    try await store.pool.write { db in
      try db.execute(
        sql: "UPDATE entry SET headers = ?",
        arguments: [Data(#"[["Cache-Control","max-age=600"],["ETag","\"old\""],["bad name",""]]"#.utf8)])
    }
    let entry = try #require(try await store.entries(for: "https://a.test/old").first)
    #expect(entry.response.headerFields[.eTag] == "\"old\"")
    #expect(entry.response.headerFields.count == 2)
    #expect(entry.variant == ["accept": "text/plain"])
    #expect(entry.body == cached("https://a.test/old", bytes: 3_000).body)
  }

  @Test func multiChunkBodiesAreReadWhole() async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try SQLiteCacheStore(url: url, chunkSize: 1024)
    for size in [0, 1, 1023, 1024, 1025, 5000] {
      try await store.store(cached("https://a.test/\(size)", bytes: size))
      let entry = try #require(try await store.entries(for: "https://a.test/\(size)").first)
      #expect(entry.body == cached("k", bytes: size).body, "\(size) bytes")
    }
  }
}

@Suite struct SQLiteConcurrentReadTests {
  /// An entry whose ETag names the byte every body byte is, so a head served with another write's body shows.
  func versioned(_ key: String, version: UInt8, bytes: Int) -> CachedResponse {
    CachedResponse(
      key: key, variant: [:],
      response: HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=600", .eTag: "\"\(version)\""]),
      body: Data(repeating: version, count: bytes), requestTime: Date(), responseTime: Date())
  }

  @Test(arguments: [500, 5_000])
  func readsDuringReplacementsSeeWholeEntries(bytes: Int) async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try SQLiteCacheStore(url: url, chunkSize: 1024)
    try await store.store(versioned("k", version: 0, bytes: bytes))
    try await withThrowingTaskGroup(of: Int.self) { group in
      group.addTask {
        for version in 1...40 { try await store.store(versioned("k", version: UInt8(version), bytes: bytes)) }
        return 0
      }
      for _ in 0..<2 {
        group.addTask {
          var checked = 0
          for _ in 0..<200 {
            for entry in try await store.entries(for: "k") {
              let version = try #require(entry.body.first)
              #expect(entry.body == Data(repeating: version, count: bytes))
              #expect(entry.response.headerFields[.eTag] == "\"\(version)\"")
              checked += 1
            }
          }
          return checked
        }
      }
      var reads = 0
      for try await count in group { reads += count }
      #expect(reads >= 400, "every read found the entry")
    }
  }
}

@Suite(.hangGuard) struct SQLiteCacheObsTextTests {
  @Test func fieldValuesKeepTheirBytesObsTextIncluded() async throws {
    let url = try temporaryCacheDatabase()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let etag: [UInt8] = [0x22, 0x61, 0xFC, 0x80, 0xFF, 0x22]
    var entry = cached("https://a.test/o", bytes: 10)
    entry.response.headerFields[.eTag] = nil
    entry.response.headerFields.append(HTTPField(name: .eTag, value: etag))
    let store = try SQLiteCacheStore(url: url)
    try await store.store(entry)
    let read = try #require(try await store.entries(for: "https://a.test/o").first)
    let field = try #require(read.response.headerFields.first { $0.name == .eTag })
    #expect(field.withUnsafeBytesOfValue { Array($0) } == etag)
    #expect(read.response.headerFields[.cacheControl] == "max-age=600")
  }
}
