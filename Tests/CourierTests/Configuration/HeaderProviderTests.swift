import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Headers computed for every request from a closure or an `Encodable` value.
@Suite struct HeaderProviderTests {
  private struct DeviceHeaders: Encodable {
    var appVersion = "2.4.1"
    var experiment: String?
    var features: [String] = []

    enum CodingKeys: String, CodingKey {
      case appVersion = "X-App-Version"
      case experiment = "X-Experiment"
      case features = "X-Features"
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func providersRunForEveryRequest(_ transport: TransportKind) async throws {
    let counter = Locked(0)
    let experiment = Locked<String?>(nil)
    let configure: (inout APIClient.Configuration) -> Void = { configuration in
      configuration.addHeaders {
        let number = counter.withLock { counter in
          counter += 1
          return counter
        }
        return [HTTPField.Name("X-Request-Number")!: "\(number)", .accept: "application/vnd.demo+json"]
      }
      configuration.addEncodedHeaders {
        DeviceHeaders(experiment: experiment.withLock { $0 }, features: ["dark", "beta"])
      }
    }
    try await withDemoServer(transport, configure) { client, _ in
      let first = try await client.value(Endpoint<Echo>.get("/echo/one"))
      #expect(first.header("X-Request-Number") == "1")
      #expect(first.header("Accept") == "application/vnd.demo+json", "a provider replaces a default header")
      #expect(first.header("X-App-Version") == "2.4.1")
      #expect(first.header("X-Features") == "dark,beta")
      #expect(first.header("X-Experiment") == nil, "a nil property sends no header")

      experiment.withLock { $0 = "new-checkout" }
      let second = try await client.value(Endpoint<Echo>.get("/echo/two").header("X-App-Version", "override"))
      #expect(second.header("X-Request-Number") == "2")
      #expect(second.header("X-Experiment") == "new-checkout")
      #expect(second.header("X-App-Version") == "override", "the endpoint's header wins")
      #expect(second.headers.filter { $0.first?.lowercased() == "x-app-version" }.count == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aValueThatCannotBeAHeaderFailsTheRequest() async throws {
    struct Nested: Encodable {
      var client = ["name": "ios"]
    }
    let injected = APIClient(baseURL: URL(string: "https://api.example.test")) {
      $0.addHeaders { [HTTPField.Name("X-Ok")!: "yes"] }
      $0.addEncodedHeaders(["X-Bad": "a\r\nInjected: 1"])
    }
    let error = #expect(throws: CourierError.self) { try injected.httpRequest(for: Endpoint<EmptyBody>.get("/")) }
    #expect(error?.kind == .invalidRequest, "\(String(describing: error))")

    let nested = APIClient(baseURL: URL(string: "https://api.example.test")) {
      $0.addEncodedHeaders(Nested())
    }
    let nestedError = #expect(throws: CourierError.self) { try nested.httpRequest(for: Endpoint<EmptyBody>.get("/")) }
    #expect(nestedError?.kind == .invalidRequest)
  }
}
