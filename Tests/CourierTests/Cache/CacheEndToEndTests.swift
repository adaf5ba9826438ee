import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// What `/cache/hits/{key}` reports: requests that reached the origin.
@available(macOS 14, iOS 17, tvOS 17, *)
struct OriginHits: Decodable, Sendable {
  var hits: Int
  var notModified: Int
  var unsafe: Int
  var version: Int
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct CachedResource: Decodable, Sendable {
  var key: String
  var version: Int
  var hit: Int
}

/// The cache against the demo API, over URLSession, checking what reached the server.
@Suite struct CacheEndToEndTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  func withCachingClient(
    _ kind: TransportKind,
    policy: CachePolicy = .useProtocolRules,
    _ body: (APIClient, APIClient) async throws -> Void
  ) async throws {
    try await withDemoServer(kind) { plain, server in
      let cached = server.client { $0.interceptors = [CacheInterceptor(store: InMemoryCacheStore(), policy: policy)] }
      try await body(cached, plain)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  func hits(_ key: String, _ client: APIClient) async throws -> OriginHits {
    try await client.value(Endpoint<OriginHits>.get("/cache/hits/\(key)"))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func maxAgeIsServedWithoutReachingTheServer(_ kind: TransportKind) async throws {
    try await withCachingClient(kind) { cached, plain in
      let resource = Endpoint<CachedResource>.get("/cache/resource/ma").query(["cc": "max-age=60"])
      #expect(try await cached.send(resource).cacheStatus == .miss)
      let second = try await cached.send(resource)
      #expect(second.cacheStatus == .hit)
      #expect(second.value.hit == 1)
      #expect(try await hits("ma", plain).hits == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func etagRevalidationReachesTheServerAs304(_ kind: TransportKind) async throws {
    try await withCachingClient(kind) { cached, plain in
      let resource = Endpoint<CachedResource>.get("/cache/resource/et").query(["cc": "no-cache", "etag": 1])
      try await cached.send(resource)
      let second = try await cached.send(resource)
      #expect(second.cacheStatus == .revalidated)
      #expect(second.value.version == 1)
      let origin = try await hits("et", plain)
      #expect(origin.hits == 2)
      #expect(origin.notModified == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func lastModifiedRevalidatesWithIfModifiedSince(_ kind: TransportKind) async throws {
    try await withCachingClient(kind) { cached, plain in
      let resource = Endpoint<CachedResource>.get("/cache/resource/lm").query(["cc": "max-age=0", "lm": 1])
      try await cached.send(resource)
      #expect(try await cached.send(resource).cacheStatus == .revalidated)
      #expect(try await hits("lm", plain).notModified == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func varyStoresOneVariantPerLanguage(_ kind: TransportKind) async throws {
    try await withCachingClient(kind) { cached, plain in
      @available(macOS 14, iOS 17, tvOS 17, *)
      func get(_ language: String) async throws -> APIResponse<CachedResource> {
        try await cached.send(
          Endpoint<CachedResource>.get("/cache/resource/vy").query(["cc": "max-age=60", "vary": "Accept-Language"])
            .header(.acceptLanguage, language))
      }
      var statuses: [CacheStatus?] = []
      for language in ["fr", "de", "fr", "de"] { statuses.append(try await get(language).cacheStatus) }
      #expect(statuses == [.miss, .miss, .hit, .hit])
      #expect(try await hits("vy", plain).hits == 2)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func noStoreAlwaysReachesTheServer(_ kind: TransportKind) async throws {
    try await withCachingClient(kind) { cached, plain in
      let resource = Endpoint<CachedResource>.get("/cache/resource/ns").query(["cc": "no-store, max-age=60"])
      for _ in 0..<3 { try await cached.send(resource) }
      #expect(try await hits("ns", plain).hits == 3)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func mustRevalidateIsNotServedStale(_ kind: TransportKind) async throws {
    try await withCachingClient(kind) { cached, plain in
      let resource = Endpoint<CachedResource>.get("/cache/resource/mr")
        .query(["cc": "max-age=1, must-revalidate", "etag": 1])
      try await cached.send(resource)
      try await Task.sleep(for: .milliseconds(2_100))
      let stale = try await cached.send(resource.header("Cache-Control", "max-stale=3600"))
      #expect(stale.cacheStatus == .revalidated, "must-revalidate overrides max-stale")
      #expect(try await hits("mr", plain).notModified == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func unsafeRequestsInvalidateTheirLocationAndTheirTarget(_ kind: TransportKind) async throws {
    try await withCachingClient(kind) { cached, plain in
      let resource = Endpoint<CachedResource>.get("/cache/resource/iv").query(["cc": "max-age=600"])
      try await cached.send(resource)
      #expect(try await cached.send(resource).cacheStatus == .hit)
      let stored = try cached.httpRequest(for: resource).path ?? ""
      try await cached.send(Endpoint<EmptyBody>.post("/cache/resource/elsewhere").query(["location": .string(stored)]))
      #expect(try await cached.send(resource).cacheStatus == .miss, "invalidated by Location")
      #expect(try await cached.send(resource).cacheStatus == .hit)
      try await cached.send(Endpoint<EmptyBody>.post("/cache/resource/iv").query(["cc": "max-age=600"]))
      let after = try await cached.send(resource)
      #expect(after.cacheStatus == .miss, "invalidated as the target")
      #expect(after.value.version == 2, "the POST made a new version")
      let origin = try await hits("iv", plain)
      #expect(origin.hits == 3)
      #expect(origin.unsafe == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func offlineFallbackServesStaleWhenTheServerIsGone(_ kind: TransportKind) async throws {
    let store = InMemoryCacheStore()
    let resource = Endpoint<CachedResource>.get("/cache/resource/off").query(["cc": "max-age=1", "etag": 1])
    var baseURL: URL?
    try await withDemoServer(kind) { _, server in
      baseURL = server.baseURL
      let cached = server.client { $0.interceptors = [CacheInterceptor(store: store, policy: .offlineFallback)] }
      try await cached.send(resource)
    }
    try await Task.sleep(for: .milliseconds(1_100))
    let url = try #require(baseURL)
    try await withTransport(kind) { transport in
      let offline = APIClient(configuration: .init(baseURL: url, transport: transport)).adding(
        CacheInterceptor(store: store, policy: .offlineFallback))
      let response = try await offline.send(resource)
      #expect(response.cacheStatus == .stale)
      #expect(response.value.key == "off")
      // HTTP's rules serve it too when the origin cannot be reached (RFC 9111 §4.2.4).
      let strict = APIClient(configuration: .init(baseURL: url, transport: transport)).adding(
        CacheInterceptor(store: store))
      #expect(try await strict.send(resource).cacheStatus == .stale)
    }
  }
}
