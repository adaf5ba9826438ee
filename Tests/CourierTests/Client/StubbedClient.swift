import Courier
import CourierTestSupport
import CourierTesting
import Foundation

extension APIClient {
  /// A test client over `transport` with base URL `https://api.example.com/v1`, whose calls wait ten minutes unless
  /// `configure` or the endpoint says otherwise: a busy machine never ends them by the clock.
  static func stubbed(_ transport: StubTransport, _ configure: (inout Configuration) -> Void = { _ in }) -> APIClient {
    .testing(baseURL: URL(string: "https://api.example.com/v1")!, transport: transport) {
      $0.timeout = 600
      configure(&$0)
    }
  }
}
