import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// End-to-end checks against httpbin (from PyPI, served by gunicorn): a server the project did not write, for
/// cookies, authentication challenges, redirects and deadlines. `.ci/run` installs it in a virtual environment,
/// starts it and sets `COURIER_HTTPBIN_URL`; without it these tests skip, unless `COURIER_REQUIRE_HTTPBIN=1`.
@Suite(.enabled(if: HTTPBin.isConfigured), .hangGuard) struct HTTPBinTests {
  func client(
    _ transport: any HTTPTransport, _ configure: (inout APIClient.Configuration) -> Void = { _ in }
  )
    throws -> APIClient
  {
    var configuration = APIClient.Configuration(baseURL: try HTTPBin.url(), transport: transport)
    configure(&configuration)
    return APIClient(configuration: configuration)
  }

  struct Cookies: Decodable, Sendable { var cookies: [String: String] }
  struct Echo: Decodable, Sendable {
    var headers: [String: String]
    var data: String?
    var url: String?
  }

  @Test(arguments: TransportKind.allCases)
  func cookiesSetOnARedirectAreKeptAndSentBack(_ kind: TransportKind) async throws {
    try await withTransport(kind) { transport in
      let client = try client(transport)
      let set = try await client.send(Endpoint<Cookies>.get("/cookies/set").query("flavor", "oat"))
      #expect(set.value.cookies == ["flavor": "oat"], "the redirect's target saw \(set.value.cookies)")
      #expect(set.redirects.count == 1)
      let later = try await client.value(Endpoint<Cookies>.get("/cookies"))
      #expect(later.cookies == ["flavor": "oat"])
      let deleted = try await client.value(Endpoint<Cookies>.get("/cookies/delete").query("flavor", ""))
      #expect(deleted.cookies.isEmpty, "the server expired it: \(deleted.cookies)")
    }
  }

  @Test(arguments: TransportKind.allCases)
  func aBasicChallengeIsAnOrdinary401(_ kind: TransportKind) async throws {
    try await withTransport(kind) { transport in
      let client = try client(transport)
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<Data>.get("/basic-auth/user/secret").timeout(600))
      }
      #expect(error?.status == .unauthorized)
      #expect(error?.response?.headerFields[.wwwAuthenticate]?.hasPrefix("Basic") == true)
      let answered = try await client.send(
        Endpoint<Data>.get("/basic-auth/user/secret").header(.authorization, "Basic dXNlcjpzZWNyZXQ="))
      #expect(answered.status == .ok)
    }
  }

  @Test(arguments: TransportKind.allCases)
  func redirectsAreFollowedAndCredentialsStayWithTheirOrigin(_ kind: TransportKind) async throws {
    try await withTransport(kind) { transport in
      let client = try client(transport)
      let chain = try await client.send(Endpoint<Data>.get("/redirect/3"))
      #expect(chain.redirects.count == 3)
      #expect(chain.redirects.last?.path == "/get")
      let base = try HTTPBin.url()
      // The same server under another host name is another origin.
      let other = "http://localhost:\(base.port ?? 80)/headers"
      let away = try await client.value(
        Endpoint<Echo>.get("/redirect-to").query("url", other).header(.authorization, "Bearer secret"))
      #expect(away.headers["Authorization"] == nil, "Authorization went to another origin")
      let near = try await client.value(
        Endpoint<Echo>.get("/redirect-to").query("url", "/headers").header(.authorization, "Bearer secret"))
      #expect(near.headers["Authorization"] == "Bearer secret")
    }
  }

  @Test(arguments: TransportKind.allCases)
  func a307SendsThePostBodyAgain(_ kind: TransportKind) async throws {
    try await withTransport(kind) { transport in
      let client = try client(transport)
      let echo = try await client.value(
        Endpoint<Echo>.post("/redirect-to").query("url", "/post").query("status_code", 307)
          .body(Data("the order".utf8), contentType: "text/plain"))
      #expect(echo.data == "the order")
    }
  }

  @Test(arguments: TransportKind.allCases)
  func deadlinesHoldAgainstSlowAndDrippingResponses(_ kind: TransportKind) async throws {
    try await withTransport(kind) { transport in
      let clock = TestCallClock(advancesOnSleep: false)
      let slow = try client(transport)
      let dripping = try client(transport) { $0.clock = clock }
      try await expectEndedByItsDeadline(0.5) { try await slow.send(Endpoint<Data>.get("/delay/10").timeout(0.5)) }
      // A body that takes 30 s: the deadline, passed once its bytes are arriving, ends the call with its head.
      try await expectTimeoutWhileTheBodyArrives(on: clock, at: 10) { onProgress in
        try await dripping.send(
          Endpoint<Data>.get("/drip").query("duration", 30).query("numbytes", 30).query("delay", 0).timeout(10)
            .onDownloadProgress(onProgress))
      }
    }
  }
}

/// Where `.ci/run` started httpbin.
enum HTTPBin {
  static var isConfigured: Bool {
    let environment = ProcessInfo.processInfo.environment
    return environment["COURIER_HTTPBIN_URL"] != nil || environment["COURIER_REQUIRE_HTTPBIN"] == "1"
  }

  static func url() throws -> URL {
    guard let text = ProcessInfo.processInfo.environment["COURIER_HTTPBIN_URL"], let url = URL(string: text) else {
      throw CourierError(.invalidURL, "COURIER_HTTPBIN_URL is not set: .ci/run installs and starts httpbin")
    }
    return url
  }
}
