import Courier
import CourierSQLiteCache
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// The stores every end-to-end cache rule is checked with.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case memory, sqlite

  var testDescription: String { rawValue }

  /// A new, empty store, and what removes it afterwards.
  func make() throws -> (store: any CacheStore, remove: @Sendable () -> Void) {
    switch self {
    case .memory:
      return (InMemoryCacheStore(), {})
    case .sqlite:
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-rules-\(UUID().uuidString)")
      let store = try SQLiteCacheStore(url: folder.appendingPathComponent("cache.sqlite"))
      return (store, { try? FileManager.default.removeItem(at: folder) })
    }
  }
}

/// Every RFC 9111 rule of the cache through nginx, a server we did not write, configured to send exactly the fields
/// each rule is about (`NginxFixture.ruleLocations`), with both stores. nginx's access log says what reached it.
@Suite(
  .enabled(if: Nginx.isAvailable, "nginx is not installed locally; install it to run these (CI does)"),
  .hangGuard
)
struct NginxCacheRuleTests {
  func withNginx(
    _ kind: StoreKind,
    policy: CachePolicy = .useProtocolRules,
    _ body: (Nginx, APIClient) async throws -> Void
  ) async throws {
    let nginx = try await Nginx.start()
    let (store, remove) = try kind.make()
    defer {
      nginx.stop()
      remove()
    }
    let client = APIClient(baseURL: nginx.baseURL) {
      $0.interceptors = [CacheInterceptor(store: store, policy: policy)]
    }
    try await body(nginx, client)
  }

  @discardableResult
  func get(_ client: APIClient, _ path: String, _ headers: [String: String] = [:]) async throws -> APIResponse<String> {
    var endpoint = Endpoint<String>.get(path).expectAnyStatus()
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      endpoint = endpoint.header(HTTPField.Name(name)!, value)
    }
    return try await client.send(endpoint)
  }

  // MARK: Age (§5.1, §4.2.3)

  @Test(arguments: StoreKind.allCases)
  func theFirstAgeCountsInAListAndAcrossLines(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      for path in ["/age/list", "/age/lines"] {
        let first = try await get(client, path)
        let second = try await get(client, path)
        #expect(first.headerFields[values: .age].joined(separator: ", ") == "7200, 0")
        #expect(second.cacheStatus == .miss, "Age 7200 > max-age 3600: stale on arrival")
        #expect(nginx.loggedStatuses(for: path) == [200, 200], "\(path)")
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anInvalidAgeIsIgnored(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      try await get(client, "/age/invalid")
      #expect(try await get(client, "/age/invalid").cacheStatus == .hit, "Age 7200.0 is not an integer")
      #expect(nginx.loggedStatuses(for: "/age/invalid") == [200])
    }
  }

  // MARK: Expires (§5.3)

  @Test(arguments: StoreKind.allCases)
  func anExpiresInUTCMeansExpiredWhileGMTIsRead(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      for _ in 0..<2 {
        _ = try await get(client, "/expires/utc")
        _ = try await get(client, "/expires/gmt")
      }
      #expect(nginx.loggedStatuses(for: "/expires/utc") == [200, 200])
      #expect(nginx.loggedStatuses(for: "/expires/gmt") == [200])
    }
  }

  // MARK: Connection and hop-by-hop fields (§3.1, RFC 9110 §7.6.1)

  @Test(arguments: StoreKind.allCases)
  func hopByHopFieldsAreNotReplayedOnAHitNorAfterA304(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      try nginx.write("hop", to: "hop/a.txt")
      try nginx.write("hop", to: "hop-fresh/a.txt")
      let hopNames = ["X-Hop", "Keep-Alive", "Upgrade", "TE", "Proxy-Connection"].map { HTTPField.Name($0)! }
      let miss = try await get(client, "/hop-fresh/a.txt")
      #expect(miss.headerFields[HTTPField.Name("X-Hop")!] == "1", "nginx sent the fields")
      let hit = try await get(client, "/hop-fresh/a.txt")
      _ = miss
      #expect(hit.cacheStatus == .hit)
      _ = try await get(client, "/hop/a.txt")
      let afterUpdate = try await get(client, "/hop/a.txt")
      #expect(afterUpdate.cacheStatus == .revalidated)
      #expect(nginx.loggedStatuses(for: "/hop/a.txt") == [200, 304])
      for response in [hit, afterUpdate] {
        for name in hopNames { #expect(response.headerFields[name] == nil, "\(name) in \(response.headerFields)") }
        #expect(!response.headerFields[values: .connection].contains { $0.contains("X-Hop") })
        #expect(response.headerFields[HTTPField.Name("X-Kept")!] == "yes")
      }
    }
  }

  // MARK: Partial content (§3.3, §3.4, RFC 9110 §14)

  @Test(arguments: StoreKind.allCases)
  func aRangeIsServedFromTheStoredCompleteResponse(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      try nginx.write("0123456789", to: "static/r.txt")
      #expect(try await get(client, "/static/r.txt").value == "0123456789")
      let part = try await get(client, "/static/r.txt", ["Range": "bytes=2-4"])
      #expect(part.status == .partialContent)
      #expect(part.cacheStatus == .hit)
      #expect(part.value == "234")
      #expect(part.headerFields[.contentRange] == "bytes 2-4/10")
      #expect(nginx.loggedStatuses(for: "/static/r.txt") == [200])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func nginxsPartsAreStoredCombinedAndNeverServedAsComplete(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      try nginx.write("0123456789", to: "static/p.txt")
      try nginx.write("abcdefghij", to: "static/q.txt")
      #expect(try await get(client, "/static/q.txt", ["Range": "bytes=0-4"]).value == "abcde")
      #expect(try await get(client, "/static/q.txt", ["Range": "bytes=1-2"]).cacheStatus == .hit)
      let whole = try await get(client, "/static/q.txt")
      #expect(whole.cacheStatus == .miss, "a stored part is not the complete response")
      #expect(whole.value == "abcdefghij")
      #expect(nginx.loggedStatuses(for: "/static/q.txt") == [206, 200])

      #expect(try await get(client, "/static/p.txt", ["Range": "bytes=0-5"]).value == "012345")
      #expect(try await get(client, "/static/p.txt", ["Range": "bytes=4-"]).value == "456789")
      let combined = try await get(client, "/static/p.txt")
      #expect(combined.cacheStatus == .hit)
      #expect(combined.status == .ok)
      #expect(combined.value == "0123456789")
      #expect(nginx.loggedStatuses(for: "/static/p.txt") == [206, 206])
    }
  }

  // MARK: Stale on a dropped connection (RFC 5861, offline policy)

  @Test(arguments: StoreKind.allCases, [CachePolicy.useProtocolRules, .offlineFallback])
  func aConnectionClosedWithoutAnAnswerServesTheStaleResponse(_ kind: StoreKind, policy: CachePolicy) async throws {
    try await withNginx(kind, policy: policy) { nginx, client in
      try nginx.write("kept", to: "drop/a.txt")
      #expect(try await get(client, "/drop/a.txt").value == "kept")
      try nginx.dropping(true)
      let stale = try await get(client, "/drop/a.txt")
      #expect(stale.cacheStatus == .stale)
      #expect(stale.value == "kept")
      // The revalidation reached nginx and was dropped; a GET that loses a reused connection before any answer is
      // sent once more on a new one, which nginx drops too.
      let log = nginx.loggedStatuses(for: "/drop/a.txt")
      #expect(log.first == 200 && log.count >= 2 && log.dropFirst().allSatisfy { $0 == 444 }, "\(log)")
    }
  }

  // MARK: Vary (§4.1)

  @Test(arguments: StoreKind.allCases)
  func varyMatchesNormalisedValues(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      try nginx.write("vary", to: "vary/a.txt")
      #expect(try await get(client, "/vary/a.txt", ["Accept-Language": "en-US,  fr;q=0.5"]).cacheStatus == .miss)
      #expect(try await get(client, "/vary/a.txt", ["Accept-Language": "EN-us, fr;q=0.5"]).cacheStatus == .hit)
      #expect(try await get(client, "/vary/a.txt", ["Accept-Language": "de"]).cacheStatus == .miss)
      #expect(nginx.loggedStatuses(for: "/vary/a.txt") == [200, 200])
      try nginx.write("star", to: "vary-star/a.txt")
      for _ in 0..<2 { _ = try await get(client, "/vary-star/a.txt") }
      #expect(nginx.loggedStatuses(for: "/vary-star/a.txt") == [200, 200], "Vary: * never matches")
    }
  }

  // MARK: Heuristic freshness (§4.2.2, RFC 9110 §15.1)

  @Test(arguments: StoreKind.allCases)
  func heuristicFreshnessOnlyForHeuristicallyCacheableStatuses(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      for _ in 0..<2 {
        _ = try await get(client, "/heuristic/200")
        _ = try await get(client, "/heuristic/599")
      }
      #expect(nginx.loggedStatuses(for: "/heuristic/200") == [200], "10% of ten days since Last-Modified")
      #expect(nginx.loggedStatuses(for: "/heuristic/599") == [599, 599])
    }
  }

  // MARK: POST responses (§4.4 and Courier's choice)

  @Test(arguments: StoreKind.allCases)
  func aFreshPostResponseIsNeverReusedForAGET(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      #expect(try await client.send(Endpoint<String>.post("/post")).value == "from POST")
      let get = try await get(client, "/post")
      #expect(get.value == "from GET")
      #expect(get.cacheStatus == .miss)
    }
  }

  // MARK: must-understand (§5.2.2.3)

  @Test(arguments: StoreKind.allCases)
  func mustUnderstandStoresUnderstoodStatusesOnly(_ kind: StoreKind) async throws {
    try await withNginx(kind) { nginx, client in
      for _ in 0..<2 {
        _ = try await get(client, "/mu/200")
        _ = try await get(client, "/mu/599")
      }
      #expect(nginx.loggedStatuses(for: "/mu/200") == [200], "understood: stored despite no-store")
      #expect(nginx.loggedStatuses(for: "/mu/599") == [599, 599])
    }
  }
}
