import Courier
import CourierDemoServer
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// Redirects over every transport against the demo API: the engines hand each redirect back and Courier follows
/// it by the same rules, across two origins (two servers on two ports).
@Suite(.hangGuard) struct RedirectEndToEndTests {
  /// Runs `body` with a second demo server, another origin, stopping it afterwards.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func withOtherOrigin(_ body: (URL) async throws -> Void) async throws {
    let other = try await DemoServer().start(host: "127.0.0.1", port: 0)
    do {
      try await body(other.baseURL)
    } catch {
      await other.stop()
      throw error
    }
    await other.stop()
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aCrossOriginRedirectLeavesCredentialsAndCookiesBehind(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      try await Self.withOtherOrigin { other in
        let target = other.appendingPathComponent("echo/landed").absoluteString
        let response = try await client.send(
          Endpoint<Echo>.get("/redirect/302").query("to", target).header(.authorization(bearer: "secret"))
            .header("Cookie", "session=1").header("X-Trace", "t"))
        #expect(response.value.path == "/echo/landed")
        #expect(response.value.header("Authorization") == nil)
        #expect(response.value.header("Cookie") == nil)
        #expect(response.value.header("X-Trace") == "t")
        #expect(response.redirects.map(\.absoluteString) == [target])
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func theSameOriginKeepsCredentials(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let echo = try await client.value(
        Endpoint<Echo>.get("/redirect/301").query("to", "/echo/same").header(.authorization(bearer: "secret")))
      #expect(echo.path == "/echo/same")
      #expect(echo.header("Authorization") == "Bearer secret")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func a307SendsThePostAndItsBodyAgainAndA303TurnsItIntoAGet(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let kept = try await client.value(
        Endpoint<Echo>.post("/redirect/307").query("to", "/echo/kept").body(json: ["title": "Hello"]))
      #expect(kept.method == "POST")
      #expect(kept.path == "/echo/kept")
      #expect(kept.body == #"{"title":"Hello"}"#)
      #expect(kept.header("Content-Type") == "application/json")

      let changed = try await client.value(
        Endpoint<Echo>.post("/redirect/303").query("to", "/echo/changed").body(json: ["title": "Hello"]))
      #expect(changed.method == "GET")
      #expect(changed.bodyLength == 0)
      #expect(changed.header("Content-Type") == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aRedirectNotToFollowComesBackAsTheResponse(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let response = try await client.send(
        Endpoint<EmptyBody>.get("/redirect/302").query("to", "/echo/never").redirects(.none).expect(.found))
      #expect(response.status == .found)
      #expect(response.headerFields[.location] == "/echo/never")
      #expect(response.redirects.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func tooManyRedirectsEndWithATypedErrorThatKeepsTheLastOne(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let chain = Endpoint<Echo>.get("/redirect/302").query("to", "/redirect/307?to=/echo/end")
      let followed = try await client.value(chain)
      #expect(followed.path == "/echo/end")
      let error = await #expect(throws: CourierError.self) {
        try await client.send(chain.redirects(.follow(max: 1)))
      }
      #expect(error?.kind == .redirect)
      #expect(error?.status == .temporaryRedirect)
      #expect(error?.detail.contains("more than 1 redirects") == true)
    }
  }
}
