import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// A 401 or 407 is an ordinary response whatever its challenge scheme: no engine answers it, and it comes back at
/// once, on every transport.
@Suite(.hangGuard) struct AuthChallengeTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases, ["basic", "digest", "negotiate", "bearer"])
  func aChallengeComesBackAtOnceAsAnUnauthorizedResponse(_ transport: TransportKind, scheme: String) async throws {
    try await withDemoServer(transport) { client, _ in
      // A challenge answered by the engine, or waited on, would end with the timeout instead.
      let error = await #expect(throws: CourierError.self) {
        try await client.send(
          Endpoint<EmptyBody>.get("/challenge/\(scheme)").header(.authorization(username: "ada", password: "x"))
            .timeout(600))
      }
      #expect(error?.status == .unauthorized)
      #expect(error?.isUnauthorized == true)
      #expect(error?.serverError(as: DemoError.self)?.code == "unauthorized")
      #expect(error?.response?.headerFields[.wwwAuthenticate]?.lowercased().hasPrefix(scheme) == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aProxyChallengeComesBackToo(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let response = try await client.send(
        Endpoint<Data>.get("/challenge/basic").query("proxy", 1).expect(.proxyAuthenticationRequired).timeout(600))
      #expect(response.status == .proxyAuthenticationRequired)
      #expect(response.headerFields[.proxyAuthenticate] == #"Basic realm="demo""#)
      #expect(!response.data.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func theConnectionIsStillGoodAfterwards(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      for _ in 0..<3 {
        _ = try? await client.send(Endpoint<EmptyBody>.get("/challenge/basic").timeout(600))
        let page = try await client.value(Endpoint<ProductPage>.get("/products").query("limit", 1).timeout(600))
        #expect(page.items.count == 1)
      }
    }
  }
}
