import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite struct CacheFreshnessTests {
  @Test func freshResponsesAreServedWithoutTheOriginUntilMaxAge() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, hit in reply(.ok, ["Cache-Control": "max-age=60"], "v\(hit)") }
    let client = origin.client()
    let first = try await client.send(Endpoint<String>.get("/a"))
    #expect(first.cacheStatus == .miss)
    clock.advance(by: 30)
    let second = try await client.send(Endpoint<String>.get("/a"))
    #expect(second.cacheStatus == .hit)
    #expect(second.value == "v1")
    #expect(second.headerFields[.age] == "30")
    #expect(origin.hits == 1)
    clock.advance(by: 31)
    let third = try await client.send(Endpoint<String>.get("/a"))
    #expect(third.cacheStatus == .miss)
    #expect(third.value == "v2")
    #expect(origin.hits == 2)
  }

  @Test func expiresAndDateGiveTheLifetime() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(.ok, ["Expires": HTTPDate.format(clock.now.addingTimeInterval(100))])
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/e"))
    clock.advance(by: 99)
    #expect(try await client.send(Endpoint<String>.get("/e")).cacheStatus == .hit)
    clock.advance(by: 2)
    #expect(try await client.send(Endpoint<String>.get("/e")).cacheStatus == .miss)
  }

  @Test func maxAgeWinsOverExpiresAndInvalidExpiresMeansExpired() async throws {
    let clock = TestCallClock()
    let both = FakeOrigin(clock: clock) { _, _ in reply(.ok, ["Cache-Control": "max-age=10", "Expires": "0"]) }
    let client = both.client()
    try await client.send(Endpoint<String>.get("/x"))
    #expect(try await client.send(Endpoint<String>.get("/x")).cacheStatus == .hit)
    let invalid = FakeOrigin(clock: clock) { _, _ in reply(.ok, ["Expires": "0", "ETag": "\"e\""]) }
    let other = invalid.client()
    try await other.send(Endpoint<String>.get("/y"))
    try await other.send(Endpoint<String>.get("/y"))
    #expect(invalid.hits == 2)
  }

  @Test func ageHeaderAndClockSkewCountTowardsAge() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in reply(.ok, ["Cache-Control": "max-age=60", "Age": "50"]) }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    clock.advance(by: 5)
    let hit = try await client.send(Endpoint<String>.get("/a"))
    #expect(hit.cacheStatus == .hit)
    #expect(hit.headerFields[.age] == "55")
    clock.advance(by: 6)
    #expect(try await client.send(Endpoint<String>.get("/a")).cacheStatus == .miss)
    let skewed = FakeOrigin(clock: clock) { _, _ in
      reply(.ok, ["Cache-Control": "max-age=60", "Date": HTTPDate.format(clock.now.addingTimeInterval(-50))])
    }
    let skewedClient = skewed.client()
    try await skewedClient.send(Endpoint<String>.get("/b"))
    clock.advance(by: 11)
    #expect(try await skewedClient.send(Endpoint<String>.get("/b")).cacheStatus == .miss, "apparent age 50 + 11 > 60")
  }

  @Test func heuristicFreshnessFromLastModifiedOnlyWithoutExplicitExpiry() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(.ok, ["Last-Modified": HTTPDate.format(clock.now.addingTimeInterval(-1000))])
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/h"))
    clock.advance(by: 99)
    #expect(try await client.send(Endpoint<String>.get("/h")).cacheStatus == .hit, "10% of 1000 s")
    clock.advance(by: 2)
    let stale = try await client.send(Endpoint<String>.get("/h"))
    #expect(stale.cacheStatus == .miss)
    #expect(origin.requests.last?.headerFields[.ifModifiedSince] != nil)
  }

  /// RFC 9110 §15.1: only heuristically cacheable statuses get a lifetime from `Last-Modified`; 500 and an unknown 599
  /// do not, however old their `Last-Modified`.
  @Test(arguments: [(200, true), (404, true), (410, true), (500, false), (599, false), (299, false)])
  func heuristicFreshnessOnlyForHeuristicallyCacheableStatuses(code: Int, cacheable: Bool) async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(HTTPResponse.Status(code: code), ["Last-Modified": HTTPDate.format(clock.now.addingTimeInterval(-10_000))])
    }
    let client = origin.client()
    _ = try? await client.send(Endpoint<String>.get("/h").expectAnyStatus())
    clock.advance(by: 10)
    let second = try await client.send(Endpoint<String>.get("/h").expectAnyStatus())
    #expect((second.cacheStatus == .hit) == cacheable, "\(code)")
    #expect(origin.hits == (cacheable ? 1 : 2), "\(code)")
  }

  @Test func noStoreIsNeverStoredAndUnknownDirectivesAreIgnored() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      request.path == "/n"
        ? reply(.ok, ["Cache-Control": "no-store, max-age=60"])
        : reply(.ok, ["Cache-Control": "max-age=60, x-made-up=\"a,b\", community=UCI"])
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/n"))
    try await client.send(Endpoint<String>.get("/n"))
    #expect(origin.hits == 2)
    try await client.send(Endpoint<String>.get("/u"))
    #expect(try await client.send(Endpoint<String>.get("/u")).cacheStatus == .hit)
  }

  @Test func uncacheableStatusesAndMethodsAreNotStored() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      request.path == "/created"
        ? reply(.created, ["Last-Modified": HTTPDate.format(clock.now.addingTimeInterval(-999))])
        : reply(.internalServerError, ["ETag": "\"x\""])
    }
    let client = origin.client()
    for path in ["/created", "/created", "/error", "/error"] {
      _ = try? await client.send(Endpoint<EmptyBody>.get(path))
    }
    #expect(origin.hits == 4)
  }
}

@Suite struct CacheRevalidationTests {
  @Test func etagRevalidationUpdatesHeadersAndServesTheStoredBody() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      if request.headerFields[.ifNoneMatch] == "\"v1\"" {
        return reply(.notModified, ["ETag": "\"v1\"", "Cache-Control": "max-age=10", "X-Version": "2"], "")
      }
      return reply(.ok, ["ETag": "\"v1\"", "Cache-Control": "max-age=10", "X-Version": "1"], "body-1")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/r"))
    clock.advance(by: 11)
    let revalidated = try await client.send(Endpoint<String>.get("/r"))
    #expect(revalidated.cacheStatus == .revalidated)
    #expect(revalidated.status == .ok)
    #expect(revalidated.value == "body-1")
    #expect(revalidated.headerFields[HTTPField.Name("X-Version")!] == "2")
    #expect(origin.requests.last?.headerFields[.ifNoneMatch] == "\"v1\"")
    clock.advance(by: 5)
    let hit = try await client.send(Endpoint<String>.get("/r"))
    #expect(hit.cacheStatus == .hit, "the 304 made the entry fresh again")
    #expect(hit.headerFields[HTTPField.Name("X-Version")!] == "2")
    #expect(origin.hits == 2)
  }

  @Test func noCacheResponsesAreStoredButAlwaysRevalidated() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      request.headerFields[.ifNoneMatch] != nil
        ? reply(.notModified, ["ETag": "\"a\""], "")
        : reply(.ok, ["ETag": "\"a\"", "Cache-Control": "no-cache, max-age=600"], "A")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/nc"))
    let second = try await client.send(Endpoint<String>.get("/nc"))
    #expect(second.cacheStatus == .revalidated)
    #expect(second.value == "A")
    #expect(origin.hits == 2)
  }

  @Test func changedResourceReplacesTheEntry() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, hit in
      reply(.ok, ["ETag": "\"v\(hit)\"", "Cache-Control": "max-age=1"], "v\(hit)")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/c"))
    clock.advance(by: 2)
    let changed = try await client.send(Endpoint<String>.get("/c"))
    #expect(changed.cacheStatus == .miss)
    #expect(changed.value == "v2")
    #expect(try await client.send(Endpoint<String>.get("/c")).value == "v2")
    #expect(origin.hits == 2)
  }

  @Test func requestDirectives() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, hit in reply(.ok, ["Cache-Control": "max-age=100"], "v\(hit)") }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/d"))
    clock.advance(by: 50)
    func get(_ directives: String, pragma: Bool = false) async throws -> APIResponse<String> {
      var endpoint = Endpoint<String>.get("/d")
      endpoint = pragma ? endpoint.header("Pragma", "no-cache") : endpoint.header("Cache-Control", directives)
      return try await client.send(endpoint)
    }
    #expect(try await get("max-age=60").cacheStatus == .hit)
    #expect(try await get("max-age=40").cacheStatus == .miss, "older than the request's max-age")
    clock.advance(by: 50)
    #expect(try await get("min-fresh=60").cacheStatus == .miss, "fresh for 50 more, not 60")
    #expect(try await get("no-cache").cacheStatus == .miss)
    #expect(try await get("", pragma: true).cacheStatus == .miss, "Pragma: no-cache without Cache-Control")
    let hitsBefore = origin.hits
    #expect(try await get("no-store").cacheStatus == .miss)
    #expect(origin.hits == hitsBefore + 1)
  }

  @Test func maxStaleAndOnlyIfCached() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      request.path == "/mr"
        ? reply(.ok, ["Cache-Control": "max-age=10, must-revalidate"]) : reply(.ok, ["Cache-Control": "max-age=10"])
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/ms"))
    try await client.send(Endpoint<String>.get("/mr"))
    clock.advance(by: 30)
    #expect(
      try await client.send(Endpoint<String>.get("/ms").header("Cache-Control", "max-stale=25")).cacheStatus == .stale)
    #expect(
      try await client.send(Endpoint<String>.get("/ms").header("Cache-Control", "max-stale")).cacheStatus == .stale)
    #expect(
      try await client.send(Endpoint<String>.get("/mr").header("Cache-Control", "max-stale")).cacheStatus == .miss,
      "must-revalidate forbids serving stale")
    let offline = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<String>.get("/never").header("Cache-Control", "only-if-cached"))
    }
    #expect(offline?.status == .gatewayTimeout)
    #expect(origin.requests.contains { $0.path == "/never" } == false)
  }

  @Test func immutableIgnoresReloadMaxAgeWhileFresh() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      reply(.ok, ["Cache-Control": request.path == "/i" ? "max-age=100, immutable" : "max-age=100"])
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/i"))
    try await client.send(Endpoint<String>.get("/m"))
    clock.advance(by: 10)
    #expect(try await client.send(Endpoint<String>.get("/i").header("Cache-Control", "max-age=0")).cacheStatus == .hit)
    #expect(try await client.send(Endpoint<String>.get("/m").header("Cache-Control", "max-age=0")).cacheStatus == .miss)
  }

  @Test func staleWhileRevalidateServesStaleAndRefreshesInTheBackground() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, hit in
      reply(.ok, ["Cache-Control": "max-age=10, stale-while-revalidate=30"], "v\(hit)")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/swr"))
    clock.advance(by: 20)
    let stale = try await client.send(Endpoint<String>.get("/swr"))
    #expect(stale.cacheStatus == .stale)
    #expect(stale.value == "v1")
    for _ in 0..<5 { try await client.send(Endpoint<String>.get("/swr")) }
    for _ in 0..<2000 where origin.hits < 2 { try await Task.sleep(for: .milliseconds(5)) }
    #expect(origin.hits == 2)
    for _ in 0..<2000 {
      if try await client.send(Endpoint<String>.get("/swr")).value == "v2" { break }
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(try await client.send(Endpoint<String>.get("/swr")).value == "v2")
    #expect(origin.hits == 2, "a burst of stale hits starts one background refresh")
    clock.advance(by: 100)
    #expect(try await client.send(Endpoint<String>.get("/swr")).cacheStatus == .miss, "beyond the window")
  }

  @Test func staleIfErrorServesStaleOnFailuresWithinItsWindow() async throws {
    let clock = TestCallClock()
    let failing = Locked(false)
    let origin = FakeOrigin(clock: clock) { _, _ in
      // A timeout: an origin that cannot be reached at all would be answered stale beyond the window too.
      if failing.withLock({ $0 }) { throw URLError(.timedOut) }
      return reply(.ok, ["Cache-Control": "max-age=10, stale-if-error=60"])
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/sie"))
    failing.withLock { $0 = true }
    clock.advance(by: 30)
    #expect(try await client.send(Endpoint<String>.get("/sie")).cacheStatus == .stale)
    clock.advance(by: 100)
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<String>.get("/sie")) }
    #expect(error?.isTimeout == true)
  }

  @Test func staleIfErrorAlsoCovers5xx() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, hit in
      hit == 1
        ? reply(.ok, ["Cache-Control": "max-age=1, stale-if-error=60"], "good")
        : reply(.serviceUnavailable, [:], "down")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/5"))
    clock.advance(by: 5)
    let response = try await client.send(Endpoint<String>.get("/5"))
    #expect(response.cacheStatus == .stale)
    #expect(response.value == "good")
  }
}

@Suite struct CacheVaryAndInvalidationTests {
  @Test func varyKeepsOneVariantPerRequestHeaderValue() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      reply(
        .ok, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], request.headerFields[.acceptLanguage] ?? "none"
      )
    }
    let client = origin.client()
    func get(_ language: String) async throws -> APIResponse<String> {
      try await client.send(Endpoint<String>.get("/v").header(.acceptLanguage, language))
    }
    #expect(try await get("fr").value == "fr")
    #expect(try await get("de").value == "de")
    #expect(try await get("fr").cacheStatus == .hit)
    #expect(try await get("fr").value == "fr")
    #expect(try await get("de").cacheStatus == .hit)
    #expect(origin.hits == 2)
  }

  @Test func varyStarNeverMatches() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in reply(.ok, ["Cache-Control": "max-age=60", "Vary": "*"]) }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/star"))
    try await client.send(Endpoint<String>.get("/star"))
    #expect(origin.hits == 2)
  }

  @Test func unsafeRequestsInvalidateTargetLocationAndContentLocation() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, hit in
      switch (request.method, request.path ?? "") {
      case (.post, _):
        return reply(.created, ["Location": "/items/2", "Content-Location": "https://origin.test/items/3"])
      case (.put, _): return reply(.internalServerError)
      case (.delete, _): return reply(.noContent, ["Location": "https://elsewhere.test/items/4"])
      default: return reply(.ok, ["Cache-Control": "max-age=600"], "\(request.path ?? "")#\(hit)")
      }
    }
    let client = origin.client()
    for path in ["/items", "/items/2", "/items/3", "/items/4"] { try await client.send(Endpoint<String>.get(path)) }
    try await client.send(Endpoint<EmptyBody>.post("/items"))
    #expect(try await client.send(Endpoint<String>.get("/items")).cacheStatus == .miss)
    #expect(try await client.send(Endpoint<String>.get("/items/2")).cacheStatus == .miss)
    #expect(try await client.send(Endpoint<String>.get("/items/3")).cacheStatus == .miss)
    #expect(try await client.send(Endpoint<String>.get("/items/4")).cacheStatus == .hit)
    _ = try? await client.send(Endpoint<EmptyBody>.put("/items/4"))
    #expect(
      try await client.send(Endpoint<String>.get("/items/4")).cacheStatus == .hit, "a failed PUT invalidates nothing")
    try await client.send(Endpoint<EmptyBody>.delete("/items/4"))
    #expect(try await client.send(Endpoint<String>.get("/items/4")).cacheStatus == .miss)
    #expect(
      try await client.send(Endpoint<String>.get("/items/4")).cacheStatus == .hit, "other origins were not touched")
  }

  @Test func authorizedRequestsAreStoredByThisPrivateCacheUnlessForbidden() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      reply(.ok, ["Cache-Control": request.path == "/me" ? "private, max-age=60" : "no-store"])
    }
    let client = origin.client()
    let me = Endpoint<String>.get("/me").header(.authorization(bearer: "t"))
    try await client.send(me)
    #expect(try await client.send(me).cacheStatus == .hit)
    let secret = Endpoint<String>.get("/secret").header(.authorization(bearer: "t"))
    try await client.send(secret)
    #expect(try await client.send(secret).cacheStatus == .miss)
  }

  @Test func headIsServedFromAStoredGET() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(.ok, ["Cache-Control": "max-age=60", "ETag": "\"h\""], "full body")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/g"))
    let head = try await client.send(Endpoint<Data>.head("/g"))
    #expect(head.cacheStatus == .hit)
    #expect(head.data.isEmpty)
    #expect(head.headerFields[.eTag] == "\"h\"")
    #expect(origin.hits == 1)
  }
}

@Suite struct CachePolicyTests {
  @Test func policiesPerClientAndPerEndpoint() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, hit in reply(.ok, ["Cache-Control": "max-age=10"], "v\(hit)") }
    let store = InMemoryCacheStore()
    let client = origin.client(store: store)
    let onlyCache = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<String>.get("/p").cachePolicy(.returnCacheOnly))
    }
    #expect(onlyCache?.kind == .notCached)
    #expect(origin.hits == 0)
    try await client.send(Endpoint<String>.get("/p"))
    clock.advance(by: 60)
    let elseLoad = try await client.send(Endpoint<String>.get("/p").cachePolicy(.returnCacheElseLoad))
    #expect(elseLoad.cacheStatus == .stale)
    #expect(try await client.send(Endpoint<String>.get("/p").cachePolicy(.returnCacheOnly)).value == "v1")
    let reload = try await client.send(Endpoint<String>.get("/p").cachePolicy(.reloadIgnoringCache))
    #expect(reload.cacheStatus == .miss)
    #expect(reload.value == "v2")
    #expect(try await client.send(Endpoint<String>.get("/p")).value == "v2", "the reload was stored")
    let reloading = origin.client(store: store, policy: .reloadIgnoringCache)
    #expect(try await reloading.send(Endpoint<String>.get("/p")).value == "v3")
  }

  @Test func offlineFallbackServesStaleWhenTheNetworkFailsButHonoursMustRevalidate() async throws {
    let clock = TestCallClock()
    let offline = Locked(false)
    let origin = FakeOrigin(clock: clock) { request, _ in
      if offline.withLock({ $0 }) { throw URLError(.notConnectedToInternet) }
      return reply(
        .ok, ["Cache-Control": request.path == "/strict" ? "max-age=1, must-revalidate" : "max-age=1"], "saved")
    }
    let client = origin.client(policy: .offlineFallback)
    try await client.send(Endpoint<String>.get("/feed"))
    try await client.send(Endpoint<String>.get("/strict"))
    offline.withLock { $0 = true }
    clock.advance(by: 3600)
    let fallback = try await client.send(Endpoint<String>.get("/feed"))
    #expect(fallback.cacheStatus == .stale)
    #expect(fallback.value == "saved")
    let strict = await #expect(throws: CourierError.self) { try await client.send(Endpoint<String>.get("/strict")) }
    #expect(strict?.isNoConnection == true)
    let plain = origin.client()
    await #expect(throws: CourierError.self) { try await plain.send(Endpoint<String>.get("/feed")) }
  }

  @Test func cancellationIsNeverAnsweredFromAStaleFallback() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, hit in
      if hit > 1 { throw CancellationError() }
      return reply(.ok, ["Cache-Control": "max-age=1"])
    }
    let client = origin.client(policy: .offlineFallback)
    try await client.send(Endpoint<String>.get("/c"))
    clock.advance(by: 10)
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<String>.get("/c")) }
    #expect(error?.isCancellation == true)
  }
}

@Suite struct CacheControlParsingTests {
  @Test func parsesDirectivesCaseInsensitivelyWithQuotesAndBadValues() {
    let control = CacheControl(
      parsing: #"Max-Age=60, no-cache="Set-Cookie, X", PRIVATE, stale-if-error=30, max-stale, s-maxage=bad"#)
    #expect(control.maxAge == 60)
    #expect(control.noCache)
    #expect(control.isPrivate)
    #expect(control.staleIfError == 30)
    #expect(control.maxStale == .infinity)
    #expect(control.sharedMaxAge == nil)
    #expect(CacheControl(parsing: "max-age=-5").maxAge == 0)
    #expect(CacheControl(parsing: "").maxAge == nil)
  }
}

@Suite struct InMemoryCacheStoreTests {
  func entry(_ key: String, bytes: Int, variant: [String: String] = [:]) -> CachedResponse {
    CachedResponse(
      key: key, variant: variant, response: HTTPResponse(status: .ok), body: Data(count: bytes),
      requestTime: Date(), responseTime: Date())
  }

  @Test func evictsLeastRecentlyUsedByBytes() async {
    let store = InMemoryCacheStore(byteLimit: 3_500)
    await store.store(entry("a", bytes: 1_000))
    await store.store(entry("b", bytes: 1_000))
    await store.store(entry("c", bytes: 1_000))
    _ = await store.entries(for: "a")
    await store.store(entry("d", bytes: 1_000))
    #expect(await store.entries(for: "b").isEmpty, "b was least recently used")
    #expect(await store.entries(for: "a").count == 1)
    #expect(await store.totalBytes <= 3_500)
    await store.store(entry("huge", bytes: 10_000))
    #expect(await store.entries(for: "huge").isEmpty)
    #expect(await store.count == 3)
  }

  /// Random writes, lookups and removals against a plain list kept in use order: the same entries survive.
  @Test func evictionMatchesAReferenceLRU() async {
    let store = InMemoryCacheStore(byteLimit: 20_000)
    var reference: [(key: String, size: Int)] = []  // least recently used first
    var state: UInt64 = 7
    func random(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<3_000 {
      let key = "k\(random(40))"
      switch random(10) {
      case 0..<5:
        let stored = entry(key, bytes: 200 + random(3_000))
        await store.store(stored)
        reference.removeAll { $0.key == key }
        reference.append((key, stored.size))
        while reference.reduce(0, { $0 + $1.size }) > 20_000 { reference.removeFirst() }
      case 5..<9:
        let found = await store.entries(for: key)
        let index = reference.firstIndex { $0.key == key }
        #expect(found.count == (index == nil ? 0 : 1))
        if let index { reference.append(reference.remove(at: index)) }
      default:
        await store.removeEntries(for: key)
        reference.removeAll { $0.key == key }
      }
    }
    #expect(await store.count == reference.count)
    #expect(await store.totalBytes == reference.reduce(0) { $0 + $1.size })
    for (key, _) in reference { #expect(await store.entries(for: key).count == 1, "\(key)") }
  }

  @Test func variantsReplaceOnlyTheirOwnEntry() async {
    let store = InMemoryCacheStore()
    await store.store(entry("k", bytes: 10, variant: ["accept-language": "fr"]))
    await store.store(entry("k", bytes: 20, variant: ["accept-language": "de"]))
    await store.store(entry("k", bytes: 30, variant: ["accept-language": "fr"]))
    let entries = await store.entries(for: "k")
    #expect(entries.count == 2)
    #expect(entries.map(\.body.count).sorted() == [20, 30])
    await store.removeEntries(for: "k")
    #expect(await store.count == 0)
    #expect(await store.totalBytes == 0)
  }
}

@Suite struct CacheControlDirectiveTests {
  @Test func readsEveryDirective() {
    let control = CacheControl(
      parsing: "max-age=1, s-maxage=2, max-stale=3, min-fresh=4, no-cache, no-store, proxy-revalidate, private, "
        + "public, immutable, only-if-cached, stale-while-revalidate=5, stale-if-error=6")
    #expect(control.maxAge == 1)
    #expect(control.sharedMaxAge == 2)
    #expect(control.maxStale == 3)
    #expect(control.minFresh == 4)
    #expect(control.noCache && control.noStore && control.mustRevalidate && control.isPrivate && control.isPublic)
    #expect(control.immutable && control.onlyIfCached)
    #expect(control.staleWhileRevalidate == 5)
    #expect(control.staleIfError == 6)
  }

  @Test func toleratesSpacingQuotingAndJunk() {
    #expect(CacheControl(parsing: " \tMAX-AGE = \"60\" ,, ,").maxAge == 60)
    #expect(CacheControl(parsing: "max-age=+7").maxAge == 7)
    #expect(CacheControl(parsing: "max-age=60, max-age=oops").maxAge == 60, "a bad value keeps the earlier one")
    #expect(CacheControl(parsing: "max-age=99999999999999999999999").maxAge == nil)
    #expect(CacheControl(parsing: "max-age=").maxAge == nil)
    #expect(CacheControl(parsing: "max-age=1.5").maxAge == nil)
    #expect(CacheControl(parsing: "max-agex=5, xmax-age=5, =5, max-age 5").maxAge == nil)
    #expect(CacheControl(parsing: #"private="a, max-age=9", no-store"#).maxAge == nil, "commas inside quotes")
    #expect(CacheControl(parsing: #"private="a, max-age=9", no-store"#).noStore)
    #expect(CacheControl(parsing: "máx-age=5, ñ, \u{0}").maxAge == nil)
    #expect(CacheControl(parsing: "max-stale=").maxStale == nil)
    #expect(CacheControl(parsing: "\"").maxAge == nil)
  }

  @Test func readsEveryFieldLine() {
    let fields: HTTPFields = [.cacheControl: "max-age=5", .cacheControl: "no-cache"]
    let control = CacheControl(fields)
    #expect(control.maxAge == 5)
    #expect(control.noCache)
  }
}

@Suite struct FreshnessTests {
  func entry(_ fields: HTTPFields, status: HTTPResponse.Status = .ok, received: TimeInterval = 1_000) -> CachedResponse
  {
    CachedResponse(
      key: "k", variant: [:], response: HTTPResponse(status: status, headerFields: fields), body: Data(),
      requestTime: Date(timeIntervalSince1970: received), responseTime: Date(timeIntervalSince1970: received))
  }

  @Test func lifetimeFromExpiresDateAndLastModified() {
    let now = Date(timeIntervalSince1970: 1_000)
    let expires = entry([.date: HTTPDate.format(now), .expires: HTTPDate.format(now.addingTimeInterval(90))])
    #expect(Freshness(expires, now: now).lifetime == 90)
    let heuristic = entry([.date: HTTPDate.format(now), .lastModified: HTTPDate.format(now.addingTimeInterval(-500))])
    #expect(Freshness(heuristic, now: now).lifetime == 50)
    let badDate = entry([.date: "yesterday", .expires: HTTPDate.format(now.addingTimeInterval(30))])
    #expect(Freshness(badDate, now: now).lifetime == 30, "an invalid Date falls back to the arrival time")
    #expect(Freshness(entry([.expires: "soon"]), now: now).lifetime == 0)
  }

  @Test func ageSurvivesNonsense() {
    let now = Date(timeIntervalSince1970: 1_010)
    #expect(Freshness(entry([.age: "inf"]), now: now).age == 10)
    #expect(Freshness(entry([.age: "nan"]), now: now).age == 10)
    #expect(Freshness(entry([.age: "-50"]), now: now).age == 10)
    #expect(Freshness(entry([.age: " 5 "]), now: now).age == 15)
  }
}
