import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Courier's redirect stage over the stub transport: the rules, independent of any engine.
@Suite(.hangGuard) struct RedirectTests {
  static func redirect(_ status: HTTPResponse.Status, to location: String) -> StubResponse {
    .status(status, headerFields: [.location: location])
  }

  static func urls(_ transport: StubTransport) -> [String] {
    transport.requests.map { "\($0.request.method) \($0.request.url?.absoluteString ?? "?")" }
  }

  @Test func aRelativeLocationIsResolvedAndTheChainIsReported() async throws {
    let transport = StubTransport(
      .get("/v1/a").reply(Self.redirect(.found, to: "b?x=1")),
      .get("/v1/b").reply(Self.redirect(.movedPermanently, to: "/v2/c")),
      .get("/v2/c").reply(.body("done")))
    let response = try await APIClient.stubbed(transport).send(Endpoint<String>.get("/a"))
    #expect(response.value == "done")
    #expect(
      response.redirects.map(\.absoluteString)
        == ["https://api.example.com/v1/b?x=1", "https://api.example.com/v2/c"])
    #expect(
      Self.urls(transport) == [
        "GET https://api.example.com/v1/a", "GET https://api.example.com/v1/b?x=1", "GET https://api.example.com/v2/c",
      ])
  }

  @Test func seeOtherAndAFoundPostBecomeAGetWithoutABody() async throws {
    for status in [HTTPResponse.Status.seeOther, .found, .movedPermanently] {
      let transport = StubTransport(
        .post("/v1/form").reply(Self.redirect(status, to: "/v1/result")), .get("/v1/result").reply(.body("ok")))
      let value = try await APIClient.stubbed(transport).value(
        Endpoint<String>.post("/form").body(json: ["a": 1]))
      #expect(value == "ok")
      let second = try #require(transport.requests.last)
      #expect(second.request.method == .get)
      #expect(second.body == nil || second.body?.isEmpty == true)
      #expect(second.request.headerFields[.contentType] == nil, "\(status)")
    }
  }

  @Test func aHeadStaysAHeadAfterSeeOther() async throws {
    let transport = StubTransport(
      .head("/v1/a").reply(Self.redirect(.seeOther, to: "/v1/b")), .head("/v1/b").reply(.status(.ok)))
    try await APIClient.stubbed(transport).send(Endpoint<EmptyBody>.head("/a"))
    #expect(transport.requests.map(\.request.method) == [.head, .head])
  }

  @Test func temporaryAndPermanentRedirectsSendTheSameMethodAndBodyAgain() async throws {
    for status in [HTTPResponse.Status.temporaryRedirect, .permanentRedirect] {
      let transport = StubTransport(
        .put("/v1/doc").reply(Self.redirect(status, to: "/v1/doc2")), .put("/v1/doc2").reply(.status(.noContent)))
      try await APIClient.stubbed(transport).send(Endpoint<EmptyBody>.put("/doc").body(Data("payload".utf8)))
      #expect(transport.requests.map(\.request.method) == [.put, .put])
      #expect(transport.requests.map { $0.body.map { String(decoding: $0, as: UTF8.self) } } == ["payload", "payload"])
    }
  }

  @Test func aBodyReadableOnceEndsTheChainWithTheRedirectKept() async throws {
    let transport = StubTransport(.post("/v1/upload").reply(Self.redirect(.temporaryRedirect, to: "/v1/other")))
    let chunks = AsyncStream<Data> { continuation in
      continuation.yield(Data("once".utf8))
      continuation.finish()
    }
    let error = await #expect(throws: CourierError.self) {
      try await APIClient.stubbed(transport).send(
        Endpoint<EmptyBody>.post("/upload").body(.body(BodyStream(chunks, isRepeatable: false))))
    }
    #expect(error?.kind == .redirect)
    #expect(error?.status == .temporaryRedirect)
    #expect(error?.detail.contains("can be read only once") == true)
    #expect(transport.requests.count == 1)
  }

  @Test func credentialsAndMarkedHeadersStayBehindOnAnotherOrigin() async throws {
    let transport = StubTransport(
      .get("/v1/me").reply(Self.redirect(.found, to: "https://cdn.example.com/avatars/me")),
      .get("/avatars/me").reply(Self.redirect(.found, to: "https://api.example.com/v1/back")),
      .get("/v1/back").reply(.body("ok")))
    let client = APIClient.stubbed(transport) {
      $0.redirects = .follow(max: 5, removingAcrossOrigins: [.init("X-Api-Key")!])
    }
    try await client.send(
      Endpoint<String>.get("/me").header(.authorization(bearer: "secret")).header("Cookie", "s=1")
        .header("X-Api-Key", "k").header("X-Trace", "t"))
    let heads = transport.requests.map(\.request.headerFields)
    #expect(
      Self.urls(transport) == [
        "GET https://api.example.com/v1/me", "GET https://cdn.example.com/avatars/me",
        "GET https://api.example.com/v1/back",
      ])
    #expect(heads[0][.authorization] == "Bearer secret")
    #expect(heads[1][.authorization] == nil && heads[1][.cookie] == nil)
    #expect(heads[1][.init("X-Api-Key")!] == nil)
    #expect(heads[1][.init("X-Trace")!] == "t")
    #expect(heads[2][.authorization] == nil, "credentials removed once are not put back")
  }

  @Test func theSameOriginKeepsCredentialsAndDefaultPortsCountAsTheSame() async throws {
    let transport = StubTransport(
      .get("/v1/a").reply(Self.redirect(.found, to: "https://API.example.com:443/v1/b")),
      .get("/v1/b").reply(.body("ok")))
    try await APIClient.stubbed(transport).send(Endpoint<String>.get("/a").header(.authorization(bearer: "secret")))
    #expect(transport.requests.last?.request.headerFields[.authorization] == "Bearer secret")
  }

  @Test func httpsToHTTPLoopsAndLongChainsAreRefusedWithTheRedirectKept() async throws {
    let downgrade = StubTransport(.get("/v1/a").reply(Self.redirect(.found, to: "http://api.example.com/v1/a")))
    let insecure = await #expect(throws: CourierError.self) {
      try await APIClient.stubbed(downgrade).send(Endpoint<EmptyBody>.get("/a"))
    }
    #expect(insecure?.kind == .redirect)
    #expect(insecure?.detail.contains("plain http") == true)
    #expect(downgrade.requests.count == 1)

    let loop = StubTransport(
      .get("/v1/a").reply(Self.redirect(.found, to: "/v1/b")), .get("/v1/b").reply(Self.redirect(.found, to: "/v1/a")))
    let looped = await #expect(throws: CourierError.self) {
      try await APIClient.stubbed(loop).send(Endpoint<EmptyBody>.get("/a"))
    }
    #expect(looped?.kind == .redirect)
    #expect(looped?.detail.contains("already visited") == true)
    #expect(loop.requests.count == 2)

    let endless = StubTransport(
      .get("/v1/n/*").reply { request in
        let next = Int(request.path.split(separator: "/").last ?? "0")! + 1
        return Self.redirect(.found, to: "/v1/n/\(next)")
      })
    let client = APIClient.stubbed(endless) { $0.redirects = .follow(max: 3) }
    let long = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/n/0")) }
    #expect(long?.kind == .redirect)
    #expect(long?.detail.contains("more than 3 redirects") == true)
    #expect(long?.status == .found)
    #expect(endless.requests.count == 4)
  }

  @Test func noneOrANonHTTPLocationHandsTheRedirectBack() async throws {
    let transport = StubTransport(
      .get("/v1/a").reply(Self.redirect(.found, to: "/v1/b")),
      .get("/v1/ftp").reply(Self.redirect(.found, to: "ftp://x/y")))
    let client = APIClient.stubbed(transport)
    let raw = try await client.send(Endpoint<EmptyBody>.get("/a").redirects(.none).expect(.found))
    #expect(raw.status == .found && raw.redirects.isEmpty)
    let ftp = try await client.send(Endpoint<EmptyBody>.get("/ftp").expect(.found))
    #expect(ftp.headerFields[.location] == "ftp://x/y")
    #expect(transport.requests.count == 2)
  }
}
