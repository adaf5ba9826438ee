import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// No secret of a request or its response appears in any text a `CourierError` renders.
@Suite(.hangGuard) struct ErrorRedactionTests {
  static let secrets = ["TOKEN-abc123", "KEY-456789", "COOKIE-987654", "PASS-24680", "RESP-TOKEN-555", "user:pw99"]

  func endpoint() -> Endpoint<Data> {
    Endpoint<Data>.post("/login").query("api_key", "KEY-456789").query("page", 2)
      .header(.authorization, "Bearer TOKEN-abc123").header(.cookie, "session=COOKIE-987654")
      .body(json: ["email": "ada@example.com", "password": "PASS-24680"])
  }

  /// Every text a person or a log might see of `error`.
  func texts(of error: CourierError) -> [String] {
    [
      error.description, error.debugDescription, error.userMessage, error.localizedDescription,
      String(describing: error), String(reflecting: error), "\(error)",
    ]
  }

  func expectNoSecret(in error: CourierError?) throws {
    let error = try #require(error)
    for text in texts(of: error) {
      for secret in Self.secrets {
        #expect(!text.contains(secret), "\(secret) appears in: \(text)")
      }
    }
    #expect(error.description.contains("<redacted>"), "\(error.description)")
  }

  @Test func aServerErrorWithSecretsInTheBodyRendersNone() async throws {
    let body = #"{"code":"bad","error":"rejected","token":"RESP-TOKEN-555"}"#
    let client = APIClient.testing(stubs: [
      .post("/login").reply(.body(body, status: .badRequest, headerFields: [.contentType: "application/json"]))
    ]) { $0.serverErrorType = DemoError.self }
    let error = await #expect(throws: CourierError.self) { try await client.send(endpoint()) }
    try expectNoSecret(in: error)
  }

  @Test(arguments: TransportKind.allCases)
  func aTransportFailureRendersNoSecretOfTheURL(_ kind: TransportKind) async throws {
    let closed = try ClosedPort()
    try await withTransport(kind) { transport in
      var components = URLComponents(url: closed.baseURL, resolvingAgainstBaseURL: false)!
      components.user = "user"
      components.password = "pw99"
      let client = APIClient(configuration: .init(baseURL: components.url, transport: transport))
      let error = await #expect(throws: CourierError.self) { try await client.send(endpoint()) }
      try expectNoSecret(in: error)
    }
  }
}
