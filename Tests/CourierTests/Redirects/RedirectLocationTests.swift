import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `Location` with what RFC 3986 does not allow is percent-encoded before it is parsed, so that the redirect is
/// followed the same on every OS (`URL(string:)` refuses such text on iOS 16 and macOS 13).
@Suite(.hangGuard) struct RedirectLocationTests {
  let base = URL(string: "https://api.example.com/v1/items/7?x=1")!

  @Test(arguments: [
    ("/search?q=a b", "https://api.example.com/search?q=a%20b"),
    ("/city/Zürich", "https://api.example.com/city/Z%C3%BCrich"),
    ("/already%20encoded?q=%C3%A9", "https://api.example.com/already%20encoded?q=%C3%A9"),
    ("/percent%zz", "https://api.example.com/percent%25zz"),
    ("/quote\"<x>^`{|}\\", "https://api.example.com/quote%22%3Cx%3E%5E%60%7B%7C%7D%5C"),
    ("/a#part one#two", "https://api.example.com/a#part%20one%23two"),
    ("next?page=2", "https://api.example.com/v1/items/next?page=2"),
    ("https://other.example.com/ü?x=y z", "https://other.example.com/%C3%BC?x=y%20z"),
    ("https://[::1]:8443/a b", "https://[::1]:8443/a%20b"),
    ("  /padded  ", "https://api.example.com/padded"),
    ("/tab\there", "https://api.example.com/tab%09here"),
  ])
  func whatAURIReferenceCannotHoldIsEncodedAndTheRestKept(location: String, expected: String) {
    #expect(RedirectLocation.url(location, relativeTo: base)?.absoluteString == expected)
  }

  @Test func aLocationWithASpaceAndNonASCIIIsFollowedEncoded() async throws {
    let transport = StubTransport(
      .get("/v1/a").reply(.status(.found, headerFields: [.location: "/v1/search?q=a b&city=Zürich"])),
      .get("/v1/search").reply(.body("found")))
    let response = try await APIClient.stubbed(transport).send(Endpoint<String>.get("/a"))
    #expect(response.value == "found")
    #expect(transport.requests.last?.request.path == "/v1/search?q=a%20b&city=Z%C3%BCrich")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aServersRedirectWithASpaceInItsLocationIsFollowedOverEveryTransport(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      // The demo server sends `Location: /products?category=shoes&q=Trail Runner` as it is, with its space.
      let response = try await client.send(
        Endpoint<ProductPage>.get("/redirect/302", query: ["to": "/products?category=shoes&q=Trail Runner"]))
      #expect(response.status == .ok)
      #expect(response.redirects.map(\.path) == ["/products"])
      #expect(response.redirects.first?.query == "category=shoes&q=Trail%20Runner")
    }
  }
}

/// A background URLSession follows redirects itself: Courier refuses it rather than let its redirect rules go unkept.
@Suite(.hangGuard) struct BackgroundSessionTests {
  @Test func aBackgroundSessionIsRefusedSayingWhy() throws {
    let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/a")
    #expect(URLSessionTransport.refusal(ofBackgroundSession: nil, request: request) == nil)
    let error = try #require(URLSessionTransport.refusal(ofBackgroundSession: "com.example.uploads", request: request))
    #expect(error.kind == .invalidRequest)
    #expect(error.detail.contains("background") && error.detail.contains("RedirectPolicy"))
    #expect(error.detail.contains("com.example.uploads"))
  }

  #if canImport(Darwin)
  @Test func aCallOnABackgroundSessionFailsBeforeAnythingIsSent() async throws {
    let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.courier-test")
    let client = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!) {
      $0.transport = URLSessionTransport(configuration: configuration)
    }
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.get("/anything"))
    }
    #expect(error?.kind == .invalidRequest)
  }
  #endif
}
