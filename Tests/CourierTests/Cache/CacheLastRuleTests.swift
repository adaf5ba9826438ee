import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Rules that http-tests/cache-tests checks last: stale when disconnected, lenient `Expires` names, `Accept-Language`
/// matching, a 206 without validators, obs-text validators.
@Suite(.hangGuard) struct CacheLastRuleTests {
  // MARK: Stale when the origin cannot be reached (RFC 9111 §4.2.4)

  @Test func aStaleResponseIsServedWhenTheOriginCannotBeReachedUnlessItForbidsIt() async throws {
    let clock = TestCallClock()
    let down = Locked(false)
    let origin = FakeOrigin(clock: clock) { request, _ in
      if down.withLock({ $0 }) { throw CourierError(.connectionLost, "The connection was closed") }
      let control =
        switch request.path {
        case "/must": "max-age=1, must-revalidate"
        case "/no-cache": "max-age=1, no-cache"
        default: "max-age=1"
        }
      return reply(.ok, ["Cache-Control": control], "saved")
    }
    let client = origin.client()
    for path in ["/plain", "/must", "/no-cache"] { try await client.send(Endpoint<String>.get(path)) }
    down.withLock { $0 = true }
    clock.advance(by: 60)
    let stale = try await client.send(Endpoint<String>.get("/plain"))
    #expect(stale.cacheStatus == .stale)
    #expect(stale.value == "saved")
    for path in ["/must", "/no-cache"] {
      let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<String>.get(path)) }
      #expect(error?.kind == .connectionLost, "\(path)")
    }
  }

  @Test func anErrorStatusIsPassedOnWithoutStaleIfError() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, hit in
      hit == 1 ? reply(.ok, ["Cache-Control": "max-age=1"], "saved") : reply(.serviceUnavailable, [:], "down")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/s"))
    clock.advance(by: 60)
    let answer = try await client.send(Endpoint<String>.get("/s").expectAnyStatus())
    #expect(answer.status == .serviceUnavailable)
    #expect(answer.cacheStatus == .miss)
  }

  // MARK: Expires as browsers read it

  @Test(arguments: [
    "Thu Aug  8 02:01:18 2050",  // asctime; 8 August 2050 is a Monday
    "Mon Aug  8 02:01:18 2050",
    "THU, 18 Aug 2050 02:01:18 GMT", "Thu, 18 AUG 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 gMT",
    "Fri, 18 Aug 2050 02:01:18 GMT", "Thursday, 18-Aug-50 02:01:18 GMT", "thursday, 18-aug-50 02:01:18 gmt",
  ])
  func expiresTakesNamesInAnyCaseAndIgnoresTheWeekday(_ text: String) throws {
    let date = try #require(HTTPDate.parseStrict(text))
    #expect(
      HTTPDate.format(date).hasSuffix(text.contains("  8") ? "08 Aug 2050 02:01:18 GMT" : "18 Aug 2050 02:01:18 GMT"))
  }

  @Test(arguments: [
    "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST", "Thu, 18 Aug 50 02:01:18 GMT",
    "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
    "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 8 Aug 2050 02:01:18 GMT",
    "Thu Aug 8 02:01:18 2050", "Xyz, 18 Aug 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 GMT\u{1}",
  ])
  func expiresStillRefusesOtherForms(_ text: String) {
    #expect(HTTPDate.parseStrict(text) == nil)
  }

  @Test func anAsctimeExpiresWithAnotherWeekdayGivesFreshness() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in reply(.ok, ["Expires": "Thu Aug  8 02:01:18 2050"]) }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/x"))
    #expect(try await client.send(Endpoint<String>.get("/x")).cacheStatus == .hit)
  }

  // MARK: Heuristic freshness for public responses (§4.2.2)

  @Test func aPublicResponseOfAnyStatusGetsHeuristicFreshness() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      var headers = ["Last-Modified": HTTPDate.format(clock.now.addingTimeInterval(-86_400))]
      if request.path == "/public" { headers["Cache-Control"] = "public" }
      return reply(HTTPResponse.Status(code: 599), headers)
    }
    let client = origin.client()
    for path in ["/public", "/plain"] {
      for _ in 0..<2 { _ = try await client.send(Endpoint<String>.get(path).expectAnyStatus()) }
    }
    #expect(origin.requests.map(\.path) == ["/public", "/plain", "/plain"])
  }

  // MARK: Vary: Accept-Language

  @Test func acceptLanguageNormalisesOrderWithinAQualityAndQualities() throws {
    #expect(LanguagePreferences("en, de")?.normalized == "de, en")
    #expect(LanguagePreferences("de;q=1.0, en")?.normalized == "de, en")
    #expect(LanguagePreferences("fr;q=0.5, de, en-GB;Q=0.500")?.normalized == "de, en-gb;q=0.500, fr;q=0.500")
    #expect(LanguagePreferences("en;q=0.9, de;q=1")?.normalized == "de, en;q=0.900")
    #expect(LanguagePreferences("en;q=2") == nil)
    #expect(LanguagePreferences("en;level=1") == nil)
    let preferences = try #require(LanguagePreferences("fr;q=0.5, de;q=1.0"))
    #expect(preferences.prefersMost(["de"]))
    #expect(preferences.prefersMost(["de-AT"]))
    #expect(!preferences.prefersMost(["fr"]))
    #expect(!preferences.prefersMost(["de, fr"]))
    #expect(!preferences.prefersMost([]))
    #expect(!(LanguagePreferences("de;q=0")?.prefersMost(["de"]) ?? true))
  }

  @Test func acceptLanguageMatchesByOrderAndBySelectedLanguage() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, hit in
      var headers = ["Cache-Control": "max-age=600", "Vary": "Accept-Language"]
      if request.path == "/selected" { headers["Content-Language"] = "de" }
      return reply(.ok, headers, "v\(hit)")
    }
    let client = origin.client()
    func get(_ path: String, _ languages: String) async throws -> CacheStatus? {
      try await client.send(Endpoint<String>.get(path).header(.acceptLanguage, languages)).cacheStatus
    }
    #expect(try await get("/order", "en, de") == .miss)
    #expect(try await get("/order", "de, en") == .hit)
    #expect(try await get("/order", "de;q=0.9, en") == .miss)
    #expect(try await get("/selected", "en, de") == .miss)
    #expect(try await get("/selected", "fr;q=0.5, de;q=1.0") == .hit)
    #expect(try await get("/selected", "fr, de;q=0.5") == .miss)
  }

  // MARK: A 206 without validators (§3.3)

  @Test func aPartWithoutValidatorsServesTheRangesItHoldsAndIsNeverCombined() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { request, _ in
      let (range, body) =
        request.headerFields[.range] == "bytes=5-9" ? ("bytes 5-9/10", "56789") : ("bytes 0-4/10", "01234")
      return reply(.partialContent, ["Cache-Control": "max-age=600", "Content-Range": range], body)
    }
    let client = origin.client()
    func get(_ range: String) async throws -> APIResponse<String> {
      try await client.send(Endpoint<String>.get("/p").header(.range, range).expectAnyStatus())
    }
    #expect(try await get("bytes=5-9").cacheStatus == .miss)
    let inside = try await get("bytes=6-8")
    #expect(inside.cacheStatus == .hit)
    #expect(inside.status == .partialContent)
    #expect(inside.value == "678")
    #expect(inside.headerFields[.contentRange] == "bytes 6-8/10")
    #expect(try await get("bytes=-1").value == "9")
    #expect(try await get("bytes=0-4").cacheStatus == .miss)
    // Without a strong validator the new part replaced the old one instead of joining it.
    #expect(try await get("bytes=0-1").value == "01")
    #expect(try await get("bytes=5-9").cacheStatus == .miss)
    #expect(origin.hits == 3)
  }

  @Test func aPartShorterThanItsContentRangeHoldsOnlyTheBytesThatArrived() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(.partialContent, ["Cache-Control": "max-age=600", "Content-Range": "bytes 4-9/10"], "01234")
    }
    let client = origin.client()
    func get(_ range: String) async throws -> APIResponse<String> {
      try await client.send(Endpoint<String>.get("/p").header(.range, range).expectAnyStatus())
    }
    #expect(try await get("bytes=-5").cacheStatus == .miss)
    // Bytes 4–8 arrived; byte 9, which the field promised, did not: a range that needs it goes to the origin.
    let inside = try await get("bytes=6-8")
    #expect(inside.cacheStatus == .hit)
    #expect(inside.value == "234")
    #expect(inside.headerFields[.contentRange] == "bytes 6-8/10")
    #expect(try await get("bytes=6-").cacheStatus == .miss)
    #expect(try await get("bytes=-5").cacheStatus == .miss)
    #expect(origin.hits == 3)
  }

  @Test func aPartLongerThanItsContentRangeIsPassedOnWholeAndNotStored() async throws {
    let clock = TestCallClock()
    let origin = FakeOrigin(clock: clock) { _, _ in
      reply(.partialContent, ["Cache-Control": "max-age=600", "Content-Range": "bytes 0-1/10"], "0123")
    }
    let client = origin.client()
    for _ in 0..<2 {
      let part = try await client.send(Endpoint<String>.get("/p").header(.range, "bytes=0-1").expectAnyStatus())
      #expect(part.cacheStatus == .miss)
      #expect(part.value == "0123")
    }
    #expect(origin.hits == 2)
  }

  // MARK: obs-text in validators

  @Test func validatorsWithObsTextGoBackByteForByte() async throws {
    let clock = TestCallClock()
    let etag: [UInt8] = [0x22, 0x61, 0xFC, 0x80, 0xFF, 0x22]
    let modified: [UInt8] = Array("Thu, 01 Jan 2026 00:00:00 GMT".utf8)
    let origin = FakeOrigin(clock: clock) { request, hit in
      if hit > 1 { return (HTTPResponse(status: .notModified), "") }
      var fields: HTTPFields = [.cacheControl: "max-age=1"]
      fields.append(HTTPField(name: .eTag, value: etag))
      fields.append(HTTPField(name: .lastModified, value: modified))
      return (HTTPResponse(status: .ok, headerFields: fields), "body")
    }
    let client = origin.client()
    try await client.send(Endpoint<String>.get("/o"))
    clock.advance(by: 10)
    let revalidated = try await client.send(Endpoint<String>.get("/o"))
    #expect(revalidated.cacheStatus == .revalidated)
    let sent = try #require(origin.requests.last)
    let ifNoneMatch = try #require(sent.headerFields.first { $0.name == .ifNoneMatch })
    #expect(ifNoneMatch.withUnsafeBytesOfValue { Array($0) } == etag)
    #expect(sent.headerFields[values: .ifNoneMatch].count == 1)
    #expect(sent.headerFields[.ifModifiedSince] == "Thu, 01 Jan 2026 00:00:00 GMT")
  }

  @Test func controlCharactersStayRefusedInHeadersTheCallerWrites() {
    for bad in ["a\rb", "a\nb", "a\u{0}b", "a\u{1}b"] {
      #expect(HTTPHeader.valueProblem(bad, name: "ETag") != nil)
    }
  }
}
