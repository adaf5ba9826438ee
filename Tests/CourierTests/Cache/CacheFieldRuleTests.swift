import CourierTestSupport
import CourierTesting
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
    let clock = TestCallClock()
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
    "Sun, 06 Nov 2094 08:49:37 UTC", "Sun, 6 Nov 2094 08:49:37 GMT", "Sun,  06 Nov 2094 08:49:37 GMT", "0",
    "2094-11-06T08:49:37Z",
  ])
  func anExpiresInAnyOtherFormMeansExpired(expires: String) async throws {
    let clock = TestCallClock()
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
    let clock = TestCallClock()
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
    clock.advance(by: 2)
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
    let clock: TestCallClock
    let midBody: Bool
    private let count = Locked(0)

    init(clock: TestCallClock, midBody: Bool) {
      self.clock = clock
      self.midBody = midBody
    }

    func send(
      _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
    ) async throws -> (
      HTTPResponse, BodyStream
    ) {
      let number = count.withLock { count in
        count += 1
        return count
      }
      var fields = HTTPFields()
      fields[.date] = HTTPDate.format(clock.now)
      fields[.cacheControl] = "max-age=10, stale-if-error=600"
      if number == 1 { return (HTTPResponse(status: .ok, headerFields: fields), BodyStream(Data("stored".utf8))) }
      guard midBody else { throw CourierError(.connectionLost, "The connection was reset") }
      fields[.contentLength] = "100"
      let chunks = AsyncThrowingStream<Data, any Error> { continuation in
        continuation.yield(Data("partial".utf8))
        continuation.finish(throwing: CourierError(.connectionLost, "The connection was reset mid-body"))
      }
      return (HTTPResponse(status: .ok, headerFields: fields), BodyStream(chunks, length: 100))
    }
  }

  @Test(arguments: [false, true])
  func aDroppedConnectionServesTheStaleResponse(midBody: Bool) async throws {
    let clock = TestCallClock()
    let origin = DroppingOrigin(clock: clock, midBody: midBody)
    let client = APIClient(configuration: .init(baseURL: URL(string: "https://origin.test"), transport: origin))
      .adding(CacheInterceptor(store: InMemoryCacheStore(), clock: clock))
    _ = try await client.send(Endpoint<Data>.get("/a"))
    clock.advance(by: 60)
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
    let clock = TestCallClock()
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
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(HTTPResponse.Status(code: code), ["Cache-Control": "max-age=60, must-understand, no-store"])
    }
    let client = origin.client()
    _ = try? await client.send(Endpoint<String>.get("/a").expectAnyStatus())
    let second = try await client.send(Endpoint<String>.get("/a").expectAnyStatus())
    #expect(second.cacheStatus == .hit, "\(code)")
    #expect(origin.hits == 1)
  }

  @Test(arguments: [299, 599])
  func anUnknownStatusIsNotStored(code: Int) async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(HTTPResponse.Status(code: code), ["Cache-Control": "max-age=60, must-understand"])
    }
    let client = origin.client()
    _ = try? await client.send(Endpoint<String>.get("/a").expectAnyStatus())
    _ = try? await client.send(Endpoint<String>.get("/a").expectAnyStatus())
    #expect(origin.hits == 2, "\(code)")
  }

  @Test func withoutMustUnderstandNoStoreStillWins() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in reply(.ok, ["Cache-Control": "max-age=60, no-store"]) }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    try await client.send(Endpoint<String>.get("/a"))
    #expect(origin.hits == 2)
  }

  @Test func aRequestsNoStoreStillWins() async throws {
    let clock = TestCallClock()
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
    let clock = TestCallClock()
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

/// Range requests (RFC 9111 §3.3, §3.4): one range is served from a stored 200 or stored parts; 206s are stored as
/// parts and combined; a part is never served as complete.
@Suite struct RangeRequestTests {
  static let document = "0123456789"

  /// An origin holding `document` with `etag`: a 206 for one range, else a 200.
  func origin(
    clock: TestCallClock,
    etag: @escaping @Sendable (Int) -> String = { _ in #""v1""# },
    cacheControl: String = "max-age=600"
  ) -> FakeOrigin {
    FakeOrigin(clock: clock) { request, count in
      let headers = ["Cache-Control": cacheControl, "ETag": etag(count)]
      guard let field = request.headerFields[.range], let wanted = ByteRangeRequest([field]),
        let range = wanted.resolved(length: Self.document.count)
      else { return reply(.ok, headers, Self.document) }
      let part = String(Array(Self.document)[range])
      return reply(
        .partialContent,
        headers.merging(["Content-Range": "bytes \(range.lowerBound)-\(range.upperBound - 1)/10"]) { $1 },
        part)
    }
  }

  @discardableResult
  func part(_ client: APIClient, _ range: String, _ extra: [String: String] = [:]) async throws -> APIResponse<String> {
    var endpoint = Endpoint<String>.get("/a").header("Range", range).expect(.partialContent)
    for (name, value) in extra { endpoint = endpoint.header(HTTPField.Name(name)!, value) }
    return try await client.send(endpoint)
  }

  @Test(arguments: [
    ("bytes=2-4", "234", "bytes 2-4/10"), ("bytes=7-", "789", "bytes 7-9/10"), ("bytes=-3", "789", "bytes 7-9/10"),
    ("bytes=0-99", "0123456789", "bytes 0-9/10"), ("BYTES = 5-5", "5", "bytes 5-5/10"),
  ])
  func oneRangeIsServedFromAStoredCompleteResponse(range: String, body: String, contentRange: String) async throws {
    let origin = origin(clock: TestCallClock())
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    let served = try await part(client, range)
    #expect(served.cacheStatus == .hit)
    #expect(served.status == .partialContent)
    #expect(served.value == body)
    #expect(served.headerFields[.contentRange] == contentRange)
    #expect(served.headerFields[.contentLength] == String(body.count))
    #expect(origin.hits == 1)
  }

  @Test(arguments: ["bytes=20-", "bytes=0-1,4-5", "items=0-1", "bytes=5-2", "bytes=-0", "bytes=x-3"])
  func anythingElseGoesToTheOriginAndIsNotStoredAsAPart(range: String) async throws {
    let origin = origin(clock: TestCallClock())
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    _ = try await client.send(Endpoint<String>.get("/a").header("Range", range).expectAnyStatus())
    #expect(origin.hits == 2, "\(range)")
    #expect(origin.requests.last?.headerFields[.range] == range)
  }

  @Test func aStaleCompleteResponseIsNotUsedForAPartAndIfRangeGoesToTheOrigin() async throws {
    let clock = TestCallClock()
    let origin = origin(clock: clock, cacheControl: "max-age=60")
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    try await part(client, "bytes=0-1", ["If-Range": #""v1""#])
    #expect(origin.hits == 2, "If-Range is the origin's to evaluate")
    clock.advance(by: 120)
    let stale = try await part(client, "bytes=0-1")
    #expect(stale.cacheStatus == .miss)
    #expect(origin.hits == 3)
  }

  @Test func aPartIsNeverServedAsTheCompleteResponse() async throws {
    let origin = origin(clock: TestCallClock())
    let client = origin.client()
    #expect(try await part(client, "bytes=0-4").cacheStatus == .miss)
    let again = try await part(client, "bytes=1-3")
    #expect(again.cacheStatus == .hit, "a range inside a stored part")
    #expect(again.value == "123")
    #expect(again.headerFields[.contentRange] == "bytes 1-3/10")
    #expect(again.headerFields[StoredParts.fieldName] == nil)
    #expect(try await part(client, "bytes=3-6").cacheStatus == .miss, "not wholly inside the stored part")
    let whole = try await client.send(Endpoint<String>.get("/a"))
    #expect(whole.cacheStatus == .miss)
    #expect(whole.value == Self.document)
    #expect(origin.hits == 3)
  }

  @Test(arguments: [["bytes=0-4", "bytes=5-9"], ["bytes=0-5", "bytes=3-9"], ["bytes=6-", "bytes=0-2", "bytes=2-6"]])
  func partsWithTheSameStrongValidatorCombineIntoTheCompleteResponse(ranges: [String]) async throws {
    let origin = origin(clock: TestCallClock())
    let client = origin.client()
    for range in ranges { try await part(client, range) }
    let whole = try await client.send(Endpoint<String>.get("/a"))
    #expect(whole.cacheStatus == .hit, "\(ranges)")
    #expect(whole.status == .ok)
    #expect(whole.value == Self.document)
    #expect(whole.headerFields[.contentLength] == "10")
    #expect(whole.headerFields[.contentRange] == nil)
    #expect(whole.headerFields[StoredParts.fieldName] == nil)
    #expect(origin.hits == ranges.count)
  }

  @Test func partsWithAnotherValidatorOrAWeakOneAreNotCombined() async throws {
    let changing = origin(clock: TestCallClock(), etag: { "\"v\($0)\"" })
    let client = changing.client()
    try await part(client, "bytes=0-4")
    try await part(client, "bytes=5-9")
    #expect(try await client.send(Endpoint<String>.get("/a")).cacheStatus == .miss)
    let weak = origin(clock: TestCallClock(), etag: { _ in #"W/"v1""# })
    let weakClient = weak.client()
    try await part(weakClient, "bytes=0-4")
    try await part(weakClient, "bytes=5-9")
    #expect(try await part(weakClient, "bytes=5-9").cacheStatus == .hit, "a part with a weak validator is kept alone")
    #expect(try await part(weakClient, "bytes=0-4").cacheStatus == .miss, "and replaces the part held before")
    #expect(try await weakClient.send(Endpoint<String>.get("/a")).cacheStatus == .miss, "weak parts are not combined")
  }

  @Test func aPartWithTheValidatorOfAStaleCompleteResponseRefreshesIt() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, count in
      let control = count == 1 ? "max-age=60" : "max-age=600"
      if request.headerFields[.range] != nil {
        return reply(
          .partialContent, ["Cache-Control": control, "ETag": #""v1""#, "Content-Range": "bytes 0-1/10"], "01")
      }
      return reply(.ok, ["Cache-Control": control, "ETag": #""v1""#], Self.document)
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/a"))
    clock.advance(by: 120)
    #expect(try await part(client, "bytes=0-1").cacheStatus == .miss)
    let whole = try await client.send(Endpoint<String>.get("/a"))
    #expect(whole.cacheStatus == .hit, "the 206's max-age=600 now applies to the stored response")
    #expect(whole.value == Self.document)
    #expect(origin.hits == 2)
  }

  @Test func unsafeRequestsRemoveStoredParts() async throws {
    let origin = origin(clock: TestCallClock())
    let client = origin.client()
    try await part(client, "bytes=0-4")
    try await client.send(Endpoint<EmptyBody>.post("/a"))
    #expect(try await part(client, "bytes=0-4").cacheStatus == .miss)
  }

  @Test func storedPartsParseAndMerge() throws {
    var parts = StoredParts(completeLength: 10, ranges: [], data: Data())
    parts = parts.adding(Data("78".utf8), at: 7..<9)
    parts = parts.adding(Data("12".utf8), at: 1..<3)
    #expect(parts.field == "10; 1-2, 7-8")
    #expect(StoredParts(field: parts.field, body: parts.data) == parts)
    parts = parts.adding(Data("3456".utf8), at: 3..<7)
    #expect(parts.ranges == [1..<9])
    #expect(parts.bytes(2..<5) == Data("234".utf8))
    #expect(parts.bytes(0..<2) == nil)
    #expect(!parts.isComplete)
    for bad in ["10; 0-4", "x; 0-1", "10; 3-1", "10; 0-10", "10; 4-5, 0-1", "10;", "10"] {
      #expect(StoredParts(field: bad, body: Data("01".utf8)) == nil, "\(bad)")
    }
  }
}
