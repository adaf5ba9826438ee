import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierSQLiteCache
import Foundation
import HTTPTypes

/// 1 KB GETs answered by `CacheInterceptor` from memory or SQLite, next to the same GET going to nginx.
///
/// The store is primed with `small.json` (fetched once, stored with `max-age=3600`), then `count` sequential calls
/// go through the whole client: request building, the interceptor chain, the store lookup and serving the stored
/// response, then either JSON decoding into a ``Catalog`` (`decoded`) or handing the body on as `Data` (`data`, the
/// cache's own cost).
enum CacheScenario {
  enum Variant: String {
    case uncached, memory, sqlite
  }

  /// What each call returns.
  enum Body: String {
    /// The document decoded into a ``Catalog``.
    case decoded
    /// The body bytes (`Endpoint<Data>`), so the figure is the client's and the cache's cost alone.
    case data
  }

  static func run(_ variant: Variant, body: Body, baseURL: URL, count: Int) async throws -> Measurement {
    switch body {
    case .decoded:
      try await run(variant, endpoint: Endpoint<Catalog>.get("/small.json"), baseURL: baseURL, count: count)
    case .data: try await run(variant, endpoint: Endpoint<Data>.get("/small.json"), baseURL: baseURL, count: count)
    }
  }

  static func run<Value>(
    _ variant: Variant,
    endpoint: Endpoint<Value>,
    baseURL: URL,
    count: Int
  ) async throws -> Measurement {
    let configuration = AsyncHTTPClientTransport.Configuration()
    let httpClient = HTTPClient(
      eventLoopGroupProvider: .singleton, configuration: configuration.httpClientConfiguration)
    let transport = AsyncHTTPClientTransport(client: httpClient, configuration: configuration)
    let plain = APIClient(baseURL: baseURL) { $0.transport = transport }
    var directory: URL?
    let client: APIClient
    switch variant {
    case .uncached:
      client = plain
    case .memory, .sqlite:
      let store: any CacheStore
      if variant == .memory {
        store = InMemoryCacheStore()
      } else {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        directory = folder
        store = try SQLiteCacheStore(url: folder.appendingPathComponent("cache.sqlite"))
      }
      let fetched = try await plain.send(endpoint)
      var head = fetched.response
      head.headerFields[.cacheControl] = "max-age=3600"
      head.headerFields[.date] = nil
      try await store.store(
        CachedResponse(
          key: "\(fetched.request.scheme ?? "http")://\(fetched.request.authority ?? "")/small.json", variant: [:],
          response: head, body: fetched.data, requestTime: Date(), responseTime: Date()))
      client = APIClient(baseURL: baseURL) {
        $0.transport = transport
        $0.interceptors = [CacheInterceptor(store: store)]
      }
    }
    defer { if let directory { try? FileManager.default.removeItem(at: directory) } }
    let probe = try await client.send(endpoint)
    guard variant == .uncached || probe.cacheStatus == .hit else {
      throw BenchmarkFailure("the primed entry was not a hit (\(String(describing: probe.cacheStatus)))")
    }
    for _ in 0..<min(count, 500) { _ = try await client.value(endpoint) }
    let start = ContinuousClock.now
    for _ in 0..<count { _ = try await client.value(endpoint) }
    let seconds = secondsSince(start)
    try await httpClient.shutdown()
    return Measurement(value: Double(count) / seconds, unit: "req/s", operations: count, seconds: seconds)
  }
}
