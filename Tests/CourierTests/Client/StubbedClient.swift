import Courier
import CourierTestSupport
import CourierTesting
import Foundation

extension APIClient {
  /// A test client over `transport` with base URL `https://api.example.com/v1`.
  static func stubbed(_ transport: StubTransport, _ configure: (inout Configuration) -> Void = { _ in }) -> APIClient {
    .testing(baseURL: URL(string: "https://api.example.com/v1")!, transport: transport, configure)
  }
}
