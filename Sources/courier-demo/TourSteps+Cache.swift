import Courier
import CourierStyles
import Foundation
import HTTPTypes

/// The tour's cache steps: a hit, a range served from the stored response, a 304 revalidation, and a stale read while
/// offline.
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runCacheSteps() async throws {
    let store = InMemoryCacheStore()
    let cached = APIClient(baseURL: baseURL) {
      $0.transport = transport
      $0.interceptors = [CacheInterceptor(store: store)]
    }

    step("A second request served from the cache (Cache-Control: max-age=60)")
    let fresh = Endpoint<CacheDemoResource>.get("/cache/resource/tour-fresh").query(["cc": "max-age=60"])
    let first = try await cached.send(fresh)
    let second = try await cached.send(fresh)
    let freshHits = try await client.value(Endpoint<CacheDemoHits>.get("/cache/hits/tour-fresh"))
    print(
      "  first: \(first.cacheStatus?.rawValue ?? "-"), second: \(second.cacheStatus?.rawValue ?? "-"), Age \(second.headerFields[.age] ?? "-")"
    )
    print("  the server saw \(freshHits.hits) request")

    step("A byte range answered from the stored response (Range: bytes=0-9)")
    let range = Endpoint<Data>.get("/cache/resource/tour-fresh").query(["cc": "max-age=60"]).header(.range, "bytes=0-9")
      .expect(.partialContent)
    let part = try await cached.send(range)
    let rangeHits = try await client.value(Endpoint<CacheDemoHits>.get("/cache/hits/tour-fresh"))
    print(
      "  \(part.status.code) \(part.cacheStatus?.rawValue ?? "-"), Content-Range \(part.headerFields[.contentRange] ?? "-"): \(String(decoding: part.data, as: UTF8.self))"
    )
    print("  the server still saw \(rangeHits.hits) request")

    step("A 304 revalidation (Cache-Control: no-cache with an ETag)")
    let validated = Endpoint<CacheDemoResource>.get("/cache/resource/tour-etag").query(["cc": "no-cache", "etag": 1])
    try await cached.send(validated)
    let revalidated = try await cached.send(validated)
    let etagHits = try await client.value(Endpoint<CacheDemoHits>.get("/cache/hits/tour-etag"))
    print(
      "  second request: \(revalidated.cacheStatus?.rawValue ?? "-") with \(revalidated.status.code), ETag \(revalidated.headerFields[.eTag] ?? "-")"
    )
    print("  the server answered \(etagHits.notModified) of \(etagHits.hits) requests with 304 Not Modified")

    step("An offline read of a stale entry (policy .offlineFallback)")
    let expiring = Endpoint<CacheDemoResource>.get("/cache/resource/tour-offline").query(["cc": "max-age=1"])
    try await cached.send(expiring)
    try await Task.sleep(nanoseconds: 1_200_000_000)
    let airplaneMode = ClosureInterceptor { request, _, _, _ in
      throw CourierError(.noConnection, "Airplane mode is on", request: request)
    }
    let offline = APIClient(baseURL: baseURL) {
      $0.transport = transport
      $0.interceptors = [CacheInterceptor(store: store, policy: .offlineFallback), airplaneMode]
    }
    let stale = try await offline.send(expiring)
    print(
      "  offline: \(stale.cacheStatus?.rawValue ?? "-") copy of version \(stale.value.version), Age \(stale.headerFields[.age] ?? "-") s"
    )
    do {
      try await offline.send(Endpoint<CacheDemoResource>.get("/cache/resource/never-seen"))
    } catch let error as CourierError {
      print("  never cached: \(error.kind), \"\(error.userMessage)\"")
    }
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheDemoResource: Decodable, Sendable {
  var key: String
  var version: Int
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheDemoHits: Decodable, Sendable {
  var hits: Int
  var notModified: Int
}
