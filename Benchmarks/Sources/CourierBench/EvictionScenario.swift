import Courier
import CourierSQLiteCache
import Foundation
import HTTPTypes

/// A full cache store under write pressure: `entries` 1 KiB responses fill a store whose byte limit holds exactly
/// that many, then every further write evicts the least recently used entry.
///
/// `writes` reports stored entries per second over `count` evicting writes; `hits` reports lookups of stored keys per
/// second over `count` lookups (each marks its entry used). The fill is not timed. With `--database PATH` the SQLite
/// store reuses a database already filled by an earlier run, so a slow store can be measured without its fill.
enum EvictionScenario {
  enum Variant: String {
    case memory, sqlite
  }

  enum Metric: String {
    case writes, hits
  }

  static func run(
    _ variant: Variant,
    metric: Metric,
    entries: Int,
    count: Int,
    database: String?
  ) async throws -> Measurement {
    let limit = entries * entry(0).size
    var folder: URL?
    let store: any CacheStore
    var filled = false
    switch variant {
    case .memory:
      store = InMemoryCacheStore(byteLimit: limit)
    case .sqlite:
      let url: URL
      if let database {
        url = URL(fileURLWithPath: database)
        filled = FileManager.default.fileExists(atPath: database)
      } else {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
          "courier-eviction-\(UUID().uuidString)")
        folder = directory
        url = directory.appendingPathComponent("cache.sqlite")
      }
      store = try SQLiteCacheStore(url: url, byteLimit: limit)
    }
    defer { if let folder { try? FileManager.default.removeItem(at: folder) } }
    if !filled {
      for index in 0..<entries { try await store.store(entry(index)) }
    }
    var generator = SplitMix(seed: 42)
    let start = ContinuousClock.now
    switch metric {
    case .writes:
      for index in 0..<count { try await store.store(entry(entries + index)) }
    case .hits:
      for _ in 0..<count {
        let index = Int(generator.next() % UInt64(entries))
        let found = try await store.entries(for: key(index))
        guard found.count == 1 else { throw BenchmarkFailure("entry \(index) was not stored") }
      }
    }
    let seconds = secondsSince(start)
    if metric == .writes, let memory = store as? InMemoryCacheStore, await memory.count != entries {
      throw BenchmarkFailure("the store holds \(await memory.count) entries, not \(entries)")
    }
    return Measurement(
      value: Double(count) / seconds, unit: metric == .writes ? "writes/s" : "hits/s", operations: count,
      seconds: seconds)
  }

  static func key(_ index: Int) -> String {
    "https://api.example.com/items/" + String(repeating: "0", count: max(0, 8 - String(index).count)) + String(index)
  }

  /// Entry `index`: the same 1 KiB body and head for every index, so every entry has the same size.
  static func entry(_ index: Int) -> CachedResponse {
    var response = HTTPResponse(status: .ok)
    response.headerFields[.contentType] = "application/json"
    response.headerFields[.cacheControl] = "max-age=3600"
    response.headerFields[.eTag] = "\"0123456789abcdef\""
    let date = Date(timeIntervalSince1970: 1_790_000_000)
    return CachedResponse(
      key: key(index), variant: [:], response: response, body: Data(repeating: 0x61, count: 1024), requestTime: date,
      responseTime: date)
  }
}

/// A small deterministic random number generator, so every run looks up the same keys.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
