import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// RFC 6265 storage and retrieval rules of ``CookieJar``, without a network.
@Suite(.hangGuard) struct CookieJarTests {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  /// A jar whose clock reads `clock`'s value.
  func jar(_ clock: Clock = Clock()) -> CookieJar {
    CookieJar(file: nil, cookies: [], now: { clock.now })
  }

  final class Clock: Sendable {
    private let value = Locked(CookieJarTests.start)
    var now: Date { value.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { value.withLock { $0 += seconds } }
  }

  func header(_ jar: CookieJar, _ url: String) -> String {
    jar.cookies(for: URL(string: url)!).map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
  }

  @Test func hostOnlyCookiesStayOnTheirHost() {
    let jar = jar()
    jar.setCookies(["a=1"], from: URL(string: "https://api.example.com/login")!)
    #expect(header(jar, "https://api.example.com/") == "a=1")
    #expect(header(jar, "https://sub.api.example.com/").isEmpty)
    #expect(header(jar, "https://example.com/").isEmpty)
  }

  @Test func domainCookiesReachSubdomainsButNotSiblings() {
    let jar = jar()
    jar.setCookies(["a=1; Domain=.example.com"], from: URL(string: "https://api.example.com/")!)
    #expect(header(jar, "https://example.com/") == "a=1")
    #expect(header(jar, "https://deep.www.example.com/") == "a=1")
    #expect(header(jar, "https://badexample.com/").isEmpty)
    #expect(header(jar, "https://example.org/").isEmpty)
  }

  @Test func aDomainTheHostDoesNotMatchIsRefused() {
    let jar = jar()
    jar.setCookies(
      ["a=1; Domain=other.com", "b=2; Domain=api.example.com"], from: URL(string: "https://example.com/")!)
    #expect(jar.cookies.isEmpty)
  }

  @Test(arguments: ["com", "co.uk", "github.io", "anything.kawasaki.jp"])
  func aPublicSuffixIsNeverACookieDomain(suffix: String) {
    let jar = jar()
    jar.setCookies(["a=1; Domain=\(suffix)"], from: URL(string: "https://shop.\(suffix)/")!)
    #expect(jar.cookies.isEmpty, "\(suffix) is a public suffix")
  }

  @Test func anExceptionRuleIsARegistrableDomain() {
    // `!city.kawasaki.jp` makes city.kawasaki.jp registrable under the wildcard `*.kawasaki.jp`.
    let jar = jar()
    jar.setCookies(["a=1; Domain=city.kawasaki.jp"], from: URL(string: "https://www.city.kawasaki.jp/")!)
    #expect(jar.cookies.map(\.domain) == ["city.kawasaki.jp"])
  }

  @Test func aPublicSuffixHostMaySetAHostOnlyCookie() {
    let jar = jar()
    jar.setCookies(["a=1; Domain=github.io"], from: URL(string: "https://github.io/")!)
    #expect(jar.cookies.first?.isHostOnly == true)
  }

  @Test func ipAddressesMatchOnlyThemselves() {
    let jar = jar()
    jar.setCookies(["a=1"], from: URL(string: "http://127.0.0.1:8080/")!)
    #expect(header(jar, "http://127.0.0.1:9090/x") == "a=1", "cookies ignore the port (RFC 6265 §8.5)")
    jar.setCookies(["b=2; Domain=0.0.1"], from: URL(string: "http://127.0.0.1/")!)
    #expect(jar.cookies.count == 1)
  }

  @Test func pathsMatchBySegments() {
    let jar = jar()
    jar.setCookies(["a=1; Path=/docs", "b=2"], from: URL(string: "https://example.com/docs/guide/page")!)
    #expect(header(jar, "https://example.com/docs") == "a=1")
    #expect(header(jar, "https://example.com/docs/web") == "a=1")
    #expect(header(jar, "https://example.com/docsets").isEmpty)
    #expect(header(jar, "https://example.com/docs/guide/x") == "b=2; a=1", "b's default path is /docs/guide")
    #expect(header(jar, "https://example.com/").isEmpty)
  }

  @Test func longerPathsGoFirstThenOlderCookies() {
    let clock = Clock()
    let jar = jar(clock)
    jar.setCookies(["old=1; Path=/"], from: URL(string: "https://example.com/")!)
    clock.advance(1)
    jar.setCookies(["deep=2; Path=/a/b", "new=3; Path=/"], from: URL(string: "https://example.com/")!)
    #expect(header(jar, "https://example.com/a/b/c") == "deep=2; old=1; new=3")
  }

  @Test func secureCookiesNeedHTTPSOrLoopback() {
    let jar = jar()
    jar.setCookies(["a=1; Secure"], from: URL(string: "http://example.com/")!)
    #expect(jar.cookies.isEmpty, "plain http may not set a Secure cookie")
    jar.setCookies(["b=2; Secure"], from: URL(string: "https://example.com/")!)
    #expect(header(jar, "https://example.com/") == "b=2")
    #expect(header(jar, "http://example.com/").isEmpty)
    jar.setCookies(["c=3; Secure"], from: URL(string: "http://localhost:8080/")!)
    #expect(header(jar, "http://localhost:8080/") == "c=3")
  }

  @Test func maxAgeWinsOverExpiresAndZeroDeletes() {
    let clock = Clock()
    let jar = jar(clock)
    let url = URL(string: "https://example.com/")!
    jar.setCookies(["a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Max-Age=60"], from: url)
    #expect(jar.cookies.first?.expires == Self.start.addingTimeInterval(60))
    clock.advance(61)
    #expect(header(jar, "https://example.com/").isEmpty, "expired after its Max-Age")
    jar.setCookies(["b=2"], from: url)
    jar.setCookies(["b=; Max-Age=0"], from: url)
    #expect(jar.cookies.isEmpty)
    jar.setCookies(["c=3; Max-Age=-5"], from: url)
    #expect(jar.cookies.isEmpty)
  }

  @Test func lifetimesAreCappedAt400Days() {
    let jar = jar()
    jar.setCookies(["a=1; Max-Age=999999999999999999"], from: URL(string: "https://example.com/")!)
    #expect(jar.cookies.first?.expires == Self.start.addingTimeInterval(400 * 24 * 3600))
  }

  @Test func aReplacedCookieKeepsItsCreationTime() {
    let clock = Clock()
    let jar = jar(clock)
    let url = URL(string: "https://example.com/")!
    jar.setCookies(["a=1"], from: url)
    clock.advance(10)
    jar.setCookies(["a=2"], from: url)
    #expect(jar.cookies.map(\.value) == ["2"])
    #expect(jar.cookies.first?.created == Self.start)
  }

  @Test(arguments: [
    "noequals", "=value", " ; Path=/", "a=b\u{1}c", "na\u{7F}me=1", String(repeating: "x", count: 5000) + "=1",
  ])
  func malformedCookiesAreIgnored(line: String) {
    let jar = jar()
    jar.setCookies([line], from: URL(string: "https://example.com/")!)
    #expect(jar.cookies.isEmpty)
  }

  @Test func attributesAreReadCaseInsensitively() {
    let jar = jar()
    jar.setCookies(
      ["a=\"quoted value\"; secure; HTTPONLY; samesite=lax; PATH=/x; max-age=10; Unknown=1"],
      from: URL(string: "https://example.com/")!)
    let cookie = jar.cookies.first
    #expect(cookie?.value == "\"quoted value\"")
    #expect(cookie?.isSecure == true)
    #expect(cookie?.isHTTPOnly == true)
    #expect(cookie?.sameSite == "Lax")
    #expect(cookie?.path == "/x")
  }

  @Test func aDomainKeepsAtMost50Cookies() {
    let clock = Clock()
    let jar = jar(clock)
    for index in 0..<60 {
      jar.setCookies(["c\(index)=\(index)"], from: URL(string: "https://example.com/")!)
      clock.advance(1)
    }
    #expect(jar.cookies.count == 50)
    #expect(jar.cookies.contains { $0.name == "c59" })
    #expect(!jar.cookies.contains { $0.name == "c0" }, "the oldest go first")
  }

  @Test(arguments: [
    ("Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"),
    ("Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37Z"),
    ("Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z"),
    ("6 Nov 2030 8:9:7 UTC", "2030-11-06T08:09:07Z"),
    ("Thu, 01-Jan-70 00:00:01", "1970-01-01T00:00:01Z"),
    ("Wed, 09 Jun 21 10:18:14 GMT", "2021-06-09T10:18:14Z"),
  ])
  func cookieDatesAreReadLeniently(text: String, expected: String) {
    #expect(CookieDate.parse(text) == ISO8601DateFormatter().date(from: expected))
  }

  @Test(arguments: [
    "", "0", "tomorrow", "Sun, 31 Feb 2030 08:49:37 GMT", "Sun, 06 Nov 1500 08:49:37 GMT",
    "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994", "Sun, 32 Nov 1994 08:49:37 GMT",
  ])
  func invalidCookieDatesAreNil(text: String) {
    #expect(CookieDate.parse(text) == nil)
  }

  @Test func aPersistentJarKeepsCookiesWithAnExpiryAcrossLaunches() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let url = URL(string: "https://example.com/")!
    do {
      let jar = try CookieJar(persistingTo: file)
      jar.setCookies(["kept=1; Max-Age=3600", "session=2"], from: url)
    }
    let reopened = try CookieJar(persistingTo: file)
    #expect(reopened.cookies.map(\.name) == ["kept"], "session cookies live as long as the jar")
  }

  @Test func aCorruptCookieFileIsATypedErrorAndIsLeftAlone() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data("not json".utf8).write(to: file)
    let error = #expect(throws: CourierError.self) { try CookieJar(persistingTo: file) }
    #expect(error?.kind == .fileSystem)
    #expect(try Data(contentsOf: file) == Data("not json".utf8))
  }

  @Test func severalSetCookieFieldsOfOneResponseAreAllKept() {
    let jar = jar()
    var response = HTTPResponse(status: .ok)
    response.headerFields.append(HTTPField(name: .setCookie, value: "session=abc; Path=/; HttpOnly"))
    response.headerFields.append(HTTPField(name: .setCookie, value: "theme=dark"))
    jar.store(from: response, for: HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1:8080/login")!))
    #expect(header(jar, "http://127.0.0.1:8080/me") == "session=abc; theme=dark")
  }

  @Test func setCookieFieldsJoinedWithCommasAreSplitApart() {
    let jar = jar()
    jar.setCookies(
      ["a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Path=/, b=2, c=3; Max-Age=60"],
      from: URL(string: "https://example.com/")!)
    #expect(header(jar, "https://example.com/") == "a=1; b=2; c=3")
  }

  @Test(arguments: [
    ("a=1, b=2", ["a=1", "b=2"]),
    ("a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT, b=2", ["a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT", "b=2"]),
    ("a=1; Expires=Wed, b=2", ["a=1; Expires=Wed, b=2"]),
    ("a=1; Expires=Wed 9, b=2", ["a=1; Expires=Wed 9", "b=2"]),
    ("a=x,y; Path=/, c", ["a=x,y; Path=/, c"]),
    ("a=1;  EXPIRES=Thu, 01 Jan 2099 00:00:00 GMT ,b=2", ["a=1;  EXPIRES=Thu, 01 Jan 2099 00:00:00 GMT", "b=2"]),
    ("a=1; Path=/;x=1, b c=2, d=3", ["a=1; Path=/;x=1, b c=2", "d=3"]),
  ])
  func joinedValuesSplitAtCommasThatStartACookie(joined: String, values: [String]) {
    #expect(CookieJar.splitJoined(joined) == values)
  }

  @Test func aLongValueFullOfCommasSplitsInOnePass() {
    // 20,000 commas inside one Expires attribute and then as many cookies: each comma is looked at once.
    let inside = "a=1; Expires=" + String(repeating: "x,", count: 20_000) + "9"
    let cookies = (0..<20_000).map { "c\($0)=\($0)" }
    let parts = CookieJar.splitJoined(inside + ", " + cookies.joined(separator: ", "))
    #expect(parts.count == 20_001)
    #expect(parts.first == inside)
    #expect(parts.last == "c19999=19999")
  }

  @Test func requestsCarryTheJarsCookiesAfterTheirOwn() {
    let jar = jar()
    jar.setCookies(["a=1"], from: URL(string: "https://example.com/")!)
    var request = HTTPRequest(method: .get, url: URL(string: "https://example.com/x")!)
    request.headerFields[.cookie] = "mine=0"
    jar.attach(to: &request)
    #expect(request.headerFields[.cookie] == "mine=0; a=1")
  }
}
