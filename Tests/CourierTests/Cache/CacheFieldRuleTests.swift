import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// RFC 9111's rules for `Age`, `Expires` and hop-by-hop fields, on the manual clock.
@Suite struct CacheFieldRuleTests {
  @Test(arguments: [("7200, 0", 7200.0), ("7200,0", 7200), (" 30 ", 30), ("0", 0), ("99999999999999", 2_147_483_648)])
  func theFirstAgeValueCounts(field: String, expected: Double) {
    #expect(Freshness.ageValue(field) == expected)
  }

  @Test(arguments: ["7200.0", "1e3", "-5", "7200x", "", " , 5", "abc", "+5"])
  func anAgeThatIsNotANonNegativeIntegerIsIgnored(field: String) {
    #expect(Freshness.ageValue(field) == nil)
  }

  @Test func aStaleAgeInAListMakesTheResponseStale() async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      var (response, body) = reply(.ok, ["Cache-Control": "max-age=3600"])
      response.headerFields.append(HTTPField(name: .age, value: "7200"))
      response.headerFields.append(HTTPField(name: .age, value: "0"))
      return (response, body)
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    #expect(try await client.send(Endpoint<String>.get("/a")).cacheStatus == .miss, "age 7200 > max-age 3600")
    #expect(origin.hits == 2)
  }

  @Test(arguments: [
    "Sun, 06 Nov 2094 08:49:37 UTC", "Sun, 6 Nov 2094 08:49:37 GMT", "sun, 06 nov 2094 08:49:37 gmt",
    "Sun,  06 Nov 2094 08:49:37 GMT", "Mon, 06 Nov 2094 08:49:37 GMT", "0", "2094-11-06T08:49:37Z",
  ])
  func anExpiresInAnyOtherFormMeansExpired(expires: String) async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { _, _ in reply(.ok, ["Expires": expires]) }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    #expect(try await client.send(Endpoint<String>.get("/a")).cacheStatus == .miss, "\(expires)")
  }

  @Test func theThreeFormsOfExpiresAreRead() throws {
    let date = try #require(HTTPDate.parse("Fri, 06 Nov 2099 08:49:37 GMT"))
    for text in ["Fri, 06 Nov 2099 08:49:37 GMT", "Friday, 06-Nov-99 08:49:37 GMT", "Fri Nov  6 08:49:37 2099"] {
      #expect(HTTPDate.parseStrict(text, now: Date(timeIntervalSince1970: 4_000_000_000)) == date, "\(text)")
    }
  }

  @Test func hopByHopFieldsAreNeitherStoredNorReplayed() async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { _, count in
      if count == 1 {
        return reply(
          .ok,
          [
            "Cache-Control": "max-age=1", "ETag": "\"v1\"", "Connection": "keep-alive, X-Hop", "X-Hop": "secret",
            "Keep-Alive": "timeout=5", "Proxy-Connection": "keep-alive", "Upgrade": "h2c", "X-Kept": "yes",
          ])
      }
      return reply(
        .notModified, ["Cache-Control": "max-age=60", "ETag": "\"v1\"", "Connection": "X-Other", "X-Other": "1"], "")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    let hit = try await client.send(Endpoint<String>.get("/a"))
    #expect(hit.cacheStatus == .hit)
    for name in ["Connection", "X-Hop", "Keep-Alive", "Proxy-Connection", "Upgrade"] {
      #expect(hit.headerFields[HTTPField.Name(name)!] == nil, "\(name) was replayed")
    }
    #expect(hit.headerFields[HTTPField.Name("X-Kept")!] == "yes")
    clock.advance(2)
    let revalidated = try await client.send(Endpoint<String>.get("/a"))
    #expect(revalidated.cacheStatus == .revalidated)
    #expect(revalidated.headerFields[HTTPField.Name("X-Other")!] == nil, "a field the 304's Connection named")
    #expect(revalidated.headerFields[.connection] == nil)
  }
}

/// RFC 5861 `stale-if-error` when the origin drops the connection, before or in the middle of the body.
@Suite struct StaleOnDroppedConnectionTests {
  /// An origin whose first answer is cacheable and whose later ones fail as `failure` says.
  final class DroppingOrigin: HTTPTransport {
    let clock: ManualClock
    let midBody: Bool
    private let count = Locked(0)

    init(clock: ManualClock, midBody: Bool) {
      self.clock = clock
      self.midBody = midBody
    }

    func send(
      _ request: HTTPRequest, body: HTTPBody?, options: TransportOptions
    ) async throws -> (
      HTTPResponse, HTTPBody
    ) {
      let number = count.withLock { count in
        count += 1
        return count
      }
      var fields = HTTPFields()
      fields[.date] = HTTPDate.format(clock.now)
      fields[.cacheControl] = "max-age=10, stale-if-error=600"
      if number == 1 { return (HTTPResponse(status: .ok, headerFields: fields), HTTPBody(Data("stored".utf8))) }
      guard midBody else { throw CourierError(.connectionLost, "The connection was reset") }
      fields[.contentLength] = "100"
      let chunks = AsyncThrowingStream<Data, any Error> { continuation in
        continuation.yield(Data("partial".utf8))
        continuation.finish(throwing: CourierError(.connectionLost, "The connection was reset mid-body"))
      }
      return (HTTPResponse(status: .ok, headerFields: fields), HTTPBody(chunks, length: .known(100)))
    }
  }

  @Test(arguments: [false, true])
  func aDroppedConnectionServesTheStaleResponse(midBody: Bool) async throws {
    let clock = ManualClock()
    let origin = DroppingOrigin(clock: clock, midBody: midBody)
    let client = APIClient(configuration: .init(baseURL: URL(string: "https://origin.test"), transport: origin))
      .adding(CacheInterceptor(store: InMemoryCacheStore(), clock: clock))
    _ = try await client.send(Endpoint<Data>.get("/a"))
    clock.advance(60)
    let stale = try await client.send(Endpoint<Data>.get("/a"))
    #expect(stale.cacheStatus == .stale)
    #expect(String(decoding: stale.value, as: UTF8.self) == "stored")
  }
}

/// `Vary` matches requests whose field values differ only where RFC 9111 §4.1 allows.
@Suite struct VaryNormalisationTests {
  func variant(_ lines: [String], name: HTTPField.Name = .acceptEncoding) -> String? {
    var request = HTTPRequest(method: .get, url: URL(string: "https://origin.test/a")!)
    for line in lines { request.headerFields.append(HTTPField(name: name, value: line)) }
    return CacheCall.varyValue(of: name, in: request)
  }

  @Test func whitespaceLinesAndCaseDoNotMakeAnotherVariant() {
    let canonical = variant(["gzip, br"])
    #expect(variant(["gzip,br"]) == canonical)
    #expect(variant(["  gzip ,  br  "]) == canonical)
    #expect(variant(["gzip", "br"]) == canonical, "two field lines are one list")
    #expect(variant(["GZIP, BR"]) == canonical, "Accept-Encoding is case-insensitive")
    #expect(variant(["gzip, , br"]) == canonical, "empty members are dropped")
    #expect(variant(["br, gzip"]) != canonical, "order is kept")
    #expect(variant([]) == nil)
  }

  @Test func caseCountsForOtherFields() {
    let name = HTTPField.Name("X-Tenant")!
    #expect(variant(["Acme"], name: name) != variant(["acme"], name: name))
  }

  @Test func aVariantStoredForOneSpellingIsServedToAnother() async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(.ok, ["Cache-Control": "max-age=60", "Vary": "Accept-Encoding, Accept-Language"])
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a").header(.acceptEncoding, "gzip, br").header(.acceptLanguage, "ru"))
    let hit = try await client.send(
      Endpoint<String>.get("/a").header(.acceptEncoding, "GZIP,br").header(.acceptLanguage, " RU "))
    #expect(hit.cacheStatus == .hit)
    let other = try await client.send(
      Endpoint<String>.get("/a").header(.acceptEncoding, "gzip, br").header(.acceptLanguage, "en"))
    #expect(other.cacheStatus == .miss)
  }
}

/// `must-understand` (RFC 9111 §5.2.2.3) with statuses the cache does and does not understand.
@Suite struct MustUnderstandTests {
  @Test(arguments: [200, 404, 301])
  func anUnderstoodStatusIsStoredDespiteNoStore(code: Int) async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(HTTPResponse.Status(code: code), ["Cache-Control": "max-age=60, must-understand, no-store"])
    }
    let client = origin.client()
    _ = try? await client.send(Endpoint<String>.get("/a").expect(.any))
    let second = try await client.send(Endpoint<String>.get("/a").expect(.any))
    #expect(second.cacheStatus == .hit, "\(code)")
    #expect(origin.hits == 1)
  }

  @Test(arguments: [299, 599, 206])
  func anUnknownStatusIsNotStored(code: Int) async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(HTTPResponse.Status(code: code), ["Cache-Control": "max-age=60, must-understand"])
    }
    let client = origin.client()
    _ = try? await client.send(Endpoint<String>.get("/a").expect(.any))
    _ = try? await client.send(Endpoint<String>.get("/a").expect(.any))
    #expect(origin.hits == 2, "\(code)")
  }

  @Test func withoutMustUnderstandNoStoreStillWins() async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { _, _ in reply(.ok, ["Cache-Control": "max-age=60, no-store"]) }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    try await client.send(Endpoint<String>.get("/a"))
    #expect(origin.hits == 2)
  }

  @Test func aRequestsNoStoreStillWins() async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { _, _ in reply(.ok, ["Cache-Control": "max-age=60, must-understand"]) }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a").header("Cache-Control", "no-store"))
    try await client.send(Endpoint<String>.get("/a"))
    #expect(origin.hits == 2)
  }
}

/// Courier's choice where RFC 9111 §4 allows it: a POST response is never stored, even with explicit freshness and a
/// `Content-Location` naming the request URI, so a later GET always gets the resource's own representation.
@Suite struct PostResponseTests {
  @Test func aFreshPostResponseWithContentLocationIsNotReusedForAGET() async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      request.method == .post
        ? reply(.ok, ["Cache-Control": "max-age=600", "Content-Location": "/a"], "from POST")
        : reply(.ok, ["Cache-Control": "max-age=600"], "from GET")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.post("/a"))
    let get = try await client.send(Endpoint<String>.get("/a"))
    #expect(get.cacheStatus == .miss)
    #expect(get.value == "from GET")
    #expect(origin.hits == 2)
  }
}

/// Range requests are forwarded: a stored 200 is never served for a part, and a 206 is never served as complete.
@Suite struct RangeRequestTests {
  @Test func aRangeRequestGoesToTheOriginAndItsPartIsNotStored() async throws {
    let clock = ManualClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      if request.headerFields[.range] != nil {
        return reply(.partialContent, ["Cache-Control": "max-age=600", "Content-Range": "bytes 0-1/10"], "v1")
      }
      return reply(.ok, ["Cache-Control": "max-age=600"], "v1v1v1v1v1")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    let part = try await client.send(Endpoint<String>.get("/a").header("Range", "bytes=0-1").expect(.partialContent))
    #expect(part.status == .partialContent)
    #expect(part.value == "v1")
    #expect(origin.hits == 2, "the range went to the origin, not to the stored 200")
    let whole = try await client.send(Endpoint<String>.get("/a"))
    #expect(whole.cacheStatus == .hit)
    #expect(whole.value == "v1v1v1v1v1", "the 206 did not replace the complete response")
  }
}
