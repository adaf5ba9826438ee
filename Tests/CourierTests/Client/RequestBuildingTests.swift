import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite struct URLJoiningTests {
  let client = APIClient.stubbed(StubTransport(.any))

  func url(_ base: String?, _ path: String) throws -> String {
    let client = APIClient.stubbed(StubTransport(.any)) { $0.baseURL = base.flatMap(URL.init(string:)) }
    return try client.httpRequest(for: Endpoint<EmptyBody>.get(path)).url?.absoluteString ?? "nil"
  }

  @Test(arguments: [
    ("https://api.example.com/v1", "/users/me", "https://api.example.com/v1/users/me"),
    ("https://api.example.com/v1/", "/users/me", "https://api.example.com/v1/users/me"),
    ("https://api.example.com/v1/", "users/me", "https://api.example.com/v1/users/me"),
    ("https://api.example.com/v1", "users/me", "https://api.example.com/v1/users/me"),
    ("https://api.example.com/v1//", "//users", "https://api.example.com/v1/users"),
    ("https://api.example.com", "/users", "https://api.example.com/users"),
    ("https://api.example.com/", "", "https://api.example.com/"),
    ("https://api.example.com", "", "https://api.example.com/"),
    ("https://api.example.com/v1", "", "https://api.example.com/v1"),
    ("https://api.example.com/v1", "/users/", "https://api.example.com/v1/users/"),
    ("http://127.0.0.1:8080/api", "/x", "http://127.0.0.1:8080/api/x"),
  ])
  func joinsWithExactlyOneSlash(base: String, path: String, expected: String) throws {
    #expect(try url(base, path) == expected)
  }

  @Test func percentEncodesPathSegmentsButKeepsSlashesAndEscapes() throws {
    #expect(try url("https://x.test", "/users/John Doe") == "https://x.test/users/John%20Doe")
    #expect(try url("https://x.test", "/files/a b#c") == "https://x.test/files/a%20b%23c")
    #expect(try url("https://x.test", "/tags/café/日本") == "https://x.test/tags/caf%C3%A9/%E6%97%A5%E6%9C%AC")
    #expect(try url("https://x.test", "/already%20encoded") == "https://x.test/already%20encoded")
    #expect(try url("https://x.test", "/100%") == "https://x.test/100%25")
    #expect(try url("https://x.test", "/a:b@c;d=e+f") == "https://x.test/a:b@c;d=e+f")
  }

  @Test func aQuestionMarkInThePathStartsAQueryKeptBeforeTheEndpointQuery() throws {
    #expect(try url("https://x.test/v1", "/search?q=a b&tag=c#d") == "https://x.test/v1/search?q=a%20b&tag=c%23d")
    let request = try client.httpRequest(for: Endpoint<EmptyBody>.get("/search?q=x", query: ["page": 2]))
    #expect(request.path == "/v1/search?q=x&page=2")
    #expect(try url("https://x.test", "/a?") == "https://x.test/a")
  }

  @Test func sameTypedDictionaryLiteralsKeepTheirOrder() throws {
    let request = try client.httpRequest(for: Endpoint<EmptyBody>.get("/a").query(["z": "1", "a": "2"]))
    #expect(request.path == "/v1/a?z=1&a=2")
    let form = try client.httpRequest(for: Endpoint<EmptyBody>.post("/a").body(form: ["z": "1", "a": "2"]))
    #expect(form.headerFields[.contentType] == "application/x-www-form-urlencoded")
  }

  @Test func absoluteURLsIgnoreTheBase() throws {
    #expect(
      try url("https://api.example.com/v1", "https://cdn.example.org/img/1.png") == "https://cdn.example.org/img/1.png")
    #expect(try url(nil, "http://127.0.0.1:9/x?a=1") == "http://127.0.0.1:9/x?a=1")
    let withQuery = try client.httpRequest(
      for: Endpoint<EmptyBody>.get("https://cdn.example.org/i?a=1").query(["b": 2]))
    #expect(withQuery.url?.absoluteString == "https://cdn.example.org/i?a=1&b=2")
  }

  @Test func endpointBaseURLOverridesTheClients() throws {
    let request = try client.httpRequest(
      for: Endpoint<EmptyBody>.get("/v2/x").baseURL(URL(string: "https://other.example.com")!))
    #expect(request.url?.absoluteString == "https://other.example.com/v2/x")
  }

  @Test func baseURLQueryIsKeptAndExtended() throws {
    #expect(try url("https://x.test/api?key=1", "/a") == "https://x.test/api/a?key=1")
    let client = APIClient.stubbed(StubTransport(.any)) { $0.baseURL = URL(string: "https://x.test/api?key=1") }
    let request = try client.httpRequest(for: Endpoint<EmptyBody>.get("/a", query: ["b": "2"]))
    #expect(request.url?.absoluteString == "https://x.test/api/a?key=1&b=2")
  }

  @Test func ipv6AndPortsSurvive() throws {
    #expect(try url("http://[::1]:8080/v1", "/x") == "http://[::1]:8080/v1/x")
  }

  @Test func relativePathWithoutBaseIsATypedError() {
    let error = #expect(throws: CourierError.self) { try url(nil, "/users") }
    #expect(error?.kind == .invalidURL)
    #expect(error?.detail.contains("no base URL") == true)
  }

  @Test(arguments: ["ftp://files.example.com/a", "file:///etc/passwd", "mailto://x"])
  func nonHTTPAbsoluteURLsAreRejected(_ path: String) {
    let error = #expect(throws: CourierError.self) { try url("https://x.test", path) }
    #expect(error?.kind == .invalidURL)
  }

  @Test func nonHTTPBaseURLIsRejectedAtSendTime() async {
    let client = APIClient.stubbed(StubTransport(.any)) { $0.baseURL = URL(string: "ftp://x.test") }
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/a")) }
    #expect(error?.kind == .invalidURL)
  }
}

@Suite struct HeaderTests {
  @Test func endpointHeadersOverrideDefaultsAndEachOther() throws {
    let client = APIClient.stubbed(StubTransport(.any)) {
      $0.defaultHeaders = [.accept: "text/html", .userAgent: "UA"]
    }
    let request = try client.httpRequest(
      for: Endpoint<EmptyBody>.get("/a").header(.accept("application/json")).header("X-Trace", "1").header(
        "x-trace", "2"))
    #expect(request.headerFields[values: .accept] == ["application/json"])
    #expect(request.headerFields[values: HTTPField.Name("X-Trace")!] == ["2"])
    #expect(request.headerFields[.userAgent] == "UA")
  }

  @Test(arguments: ["a\r\nInjected: yes", "line\n", "cr\r", "nul\u{0}"])
  func crOrLFInAValueIsRejectedAndNothingIsSent(_ value: String) async {
    let transport = StubTransport(.any)
    let client = APIClient.stubbed(transport)
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.get("/a").header("X-Token", value))
    }
    #expect(error?.kind == .invalidRequest)
    #expect(error?.detail.contains("X-Token") == true)
    #expect(transport.requests.isEmpty)
  }

  @Test func bearerTokenWithNewlineIsRejected() {
    let client = APIClient.stubbed(StubTransport(.any))
    let error = #expect(throws: CourierError.self) {
      try client.httpRequest(for: Endpoint<EmptyBody>.get("/a").header(.authorization(bearer: "abc\n")))
    }
    #expect(error?.kind == .invalidRequest)
  }

  @Test func invalidHeaderNameIsRejected() {
    let client = APIClient.stubbed(StubTransport(.any))
    let error = #expect(throws: CourierError.self) {
      try client.httpRequest(for: Endpoint<EmptyBody>.get("/a").header("Bad Name", "v"))
    }
    #expect(error?.kind == .invalidRequest)
  }

  @Test func typedHeaderFactories() throws {
    #expect(try HTTPHeader.authorization(bearer: "t0k").validated().value == "Bearer t0k")
    #expect(
      try HTTPHeader.authorization(username: "aladdin", password: "opensesame").validated().value
        == "Basic YWxhZGRpbjpvcGVuc2VzYW1l")
    #expect(try HTTPHeader.accept("application/json").validated().name == .accept)
    #expect(try HTTPHeader.contentType("text/csv").validated().name == .contentType)
    #expect(HTTPHeader.acceptLanguage(["en-US", "fr", "de"]).value == "en-US;q=1.0, fr;q=0.9, de;q=0.8")
    #expect(HTTPHeader.acceptEncoding(["gzip", "deflate"]).value == "gzip;q=1.0, deflate;q=0.9")
  }

  @Test func defaultUserAgentHasTheDocumentedShape() throws {
    let value = HTTPHeader.defaultUserAgent.value
    let pattern = #/^[^/ ]+/[^ ]+ \([^;]+; build:[^;]+; [A-Za-z]+ \d+\.\d+\) Courier/[0-9.]+$/#
    #expect(value.wholeMatch(of: pattern) != nil, "User-Agent was \(value)")
    #if os(Linux)
    #expect(value.contains("; Linux "))
    #endif
  }

  @Test func defaultAcceptLanguageHasAtMostSixWithQValues() {
    let value = HTTPHeader.defaultAcceptLanguage.value
    let parts = value.components(separatedBy: ", ")
    #expect((1...6).contains(parts.count))
    #expect(parts.first?.hasSuffix(";q=1.0") == true)
  }

  @Test func defaultsIncludeAcceptEncodingFromTheTransport() throws {
    struct GzipTransport: HTTPTransport {
      var supportedContentEncodings: [String] { ["gzip", "deflate"] }
      func send(
        _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
      ) async throws
        -> (HTTPResponse, BodyStream)
      { (HTTPResponse(status: .ok), BodyStream()) }
    }
    let client = APIClient(configuration: .init(baseURL: URL(string: "https://x.test"), transport: GzipTransport()))
    let request = try client.httpRequest(for: Endpoint<EmptyBody>.get("/"))
    #expect(request.headerFields[.acceptEncoding] == "gzip;q=1.0, deflate;q=0.9")
    #expect(request.headerFields[.userAgent]?.contains("Courier/") == true)
    #expect(request.headerFields[.acceptLanguage] != nil)
    let silent = APIClient.stubbed(StubTransport(.any))
    #expect(try silent.httpRequest(for: Endpoint<EmptyBody>.get("/")).headerFields[.acceptEncoding] == nil)
  }
}

@Suite struct BodyAndQueryBuildingTests {
  struct Filter: Encodable, Sendable {
    var category: String?
    var tags: [String]
    var inStock: Bool
  }

  @Test func encodableQueryFollowsHandWrittenQueryInOrder() throws {
    let client = APIClient.stubbed(StubTransport(.any))
    let request = try client.httpRequest(
      for: Endpoint<EmptyBody>.get("/p", query: ["page": 2]).query(
        Filter(category: nil, tags: ["a b", "c"], inStock: true)))
    #expect(request.path == "/v1/p?page=2&tags%5B%5D=a%20b&tags%5B%5D=c&inStock=true")
  }

  @Test func clientAndEndpointQueryEncodersApply() throws {
    let client = APIClient.stubbed(StubTransport(.any)) { $0.queryEncoder.encodesBoolsAsNumbers = true }
    let filter = Filter(category: "x", tags: ["a", "b"], inStock: false)
    #expect(
      try client.httpRequest(for: Endpoint<EmptyBody>.get("/p").query(filter)).path
        == "/v1/p?category=x&tags%5B%5D=a&tags%5B%5D=b&inStock=0")
    let endpoint = Endpoint<EmptyBody>.get("/p").query(filter).queryEncoder(
      URLQueryEncoder(arrayEncoding: .commaSeparated))
    #expect(try client.httpRequest(for: endpoint).path == "/v1/p?category=x&tags=a%2Cb&inStock=false")
  }

  @Test func jsonBodySetsContentTypeUnlessTheCallerDid() async throws {
    let transport = StubTransport(.any)
    let client = APIClient.stubbed(transport)
    try await client.send(Endpoint<EmptyBody>.post("/a", body: ["name": "Zoë"]))
    try await client.send(
      Endpoint<EmptyBody>.post("/a", body: ["name": "Zoë"]).header(.contentType("application/vnd.api+json")))
    #expect(transport.requests[0].headerFields[values: .contentType] == ["application/json"])
    #expect(transport.requests[1].headerFields[values: .contentType] == ["application/vnd.api+json"])
    #expect(transport.requests[0].body == Data(#"{"name":"Zoë"}"#.utf8))
  }

  @Test func formBodyUsesTheQueryEngine() async throws {
    let transport = StubTransport(.any)
    let client = APIClient.stubbed(transport)
    try await client.send(
      Endpoint<EmptyBody>.post("/login").body(form: ["email": "a+b@x.test", "password": "p&w=1 2"]))
    #expect(transport.requests[0].headerFields[.contentType] == "application/x-www-form-urlencoded")
    #expect(
      transport.requests[0].body.map { String(decoding: $0, as: UTF8.self) }
        == "email=a%2Bb%40x.test&password=p%26w%3D1%202")
  }

  @Test func perEndpointJSONEncoderIsUsed() async throws {
    struct Payload: Encodable, Sendable { var userName: String }
    let transport = StubTransport(.any)
    let client = APIClient.stubbed(transport)
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    try await client.send(Endpoint<EmptyBody>.post("/a", body: Payload(userName: "x")).encoder(encoder))
    #expect(transport.requests[0].body == Data(#"{"user_name":"x"}"#.utf8))
  }

  @Test func unencodableQueryIsATypedErrorNamingTheKeyPath() async {
    struct Bad: Encodable, Sendable { var price: Double }
    let transport = StubTransport(.any)
    let client = APIClient.stubbed(transport)
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.get("/a").query(Bad(price: .nan)))
    }
    #expect(error?.kind == .encoding)
    #expect(error?.codingPath == "price")
    #expect(transport.requests.isEmpty)
  }

  @Test func unencodableJSONBodyIsATypedError() async {
    let client = APIClient.stubbed(StubTransport(.any))
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.post("/a", body: ["ratio": Double.infinity]))
    }
    #expect(error?.kind == .encoding)
    #expect(error?.codingPath == "ratio")
  }

  @Test func methodAndTimeoutModifiers() async throws {
    let transport = StubTransport(.any)
    // The timeouts are only read here: on a clock that never moves, a busy machine cannot make one expire.
    let client = APIClient.testing(baseURL: URL(string: "https://x.test")!, transport: transport) {
      $0.clock = TestCallClock(advancesOnSleep: false)
    }
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
      try await client.send(Endpoint<EmptyBody>("login").method(.post).timeout(.seconds(25.5)))
      #expect(transport.requests.last?.options.timeout == 25.5)
    }
    try await client.send(Endpoint<EmptyBody>("login").timeout(40))
    #expect(transport.requests.last?.options.timeout == 40)
    try await client.send(Endpoint<EmptyBody>("login"))
    #expect(transport.requests.last?.options.timeout == 60)
  }
}

/// Header values go out exactly as written or not at all: visible ASCII, spaces and tabs only.
@Suite(.hangGuard) struct HeaderValueTests {
  static let client = APIClient.stubbed(StubTransport(.any))

  static func problem(_ value: String) -> CourierError? {
    #expect(throws: CourierError.self) {
      try client.httpRequest(for: Endpoint<EmptyBody>.get("/a").header("X-Note", value))
    }
  }

  @Test func visibleASCIISpacesAndTabsAreSentAsWritten() throws {
    let request = try Self.client.httpRequest(for: Endpoint<EmptyBody>.get("/a").header("X-Note", "a b\tc ~!\"#"))
    #expect(request.headerFields[HTTPField.Name("X-Note")!] == "a b\tc ~!\"#")
  }

  @Test(arguments: [
    ("caf\u{E9}", "non-ASCII text", "0xC3 at offset 3"),
    ("a\u{7F}", "a control character", "0x7F at offset 1"),
    ("a\u{1B}[0m", "a control character", "0x1B at offset 1"),
    ("a\u{0}b", "NUL", "0x00 at offset 1"),
    ("tok\r\nX-Evil: 1", "CR or LF", "0x0D at offset 3"),
  ])
  func everythingElseIsRefusedNamingTheHeaderButNotTheValue(value: String, what: String, where: String) {
    let error = Self.problem(value)
    #expect(error?.kind == .invalidRequest)
    #expect(error?.detail.contains("\"X-Note\" contains \(what) (byte \(`where`))") == true)
    #expect(error?.detail.contains(value) == false)
  }

  @Test func aDefaultHeaderThatCannotBeSentFailsEveryRequest() async throws {
    let transport = StubTransport(.any.reply(.status(.ok)))
    let client = APIClient.stubbed(transport) {
      $0.defaultHeaders[HTTPField.Name("X-Team")!] = "\u{00E9}quipe"
    }
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/a")) }
    #expect(error?.kind == .invalidRequest)
    #expect(error?.detail.contains("\"X-Team\"") == true)
    #expect(transport.requests.isEmpty)
  }

  @Test func theDefaultUserAgentPercentEncodesNamesOutsideASCII() throws {
    #expect(HTTPHeader.token("Погода") == "%D0%9F%D0%BE%D0%B3%D0%BE%D0%B4%D0%B0")
    #expect(HTTPHeader.token("My App (beta)") == "My%20App%20%28beta%29")
    #expect(HTTPHeader.token("com.example.app-1_2~x") == "com.example.app-1_2~x")
    _ = try HTTPHeader.defaultUserAgent.validated()
  }
}
