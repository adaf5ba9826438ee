import Courier
import Foundation

extension APIClient {
  /// A client in sample mode: every call is answered with its endpoint's `SampleResponse`, at once or after a
  /// delay, and nothing reaches the network.
  ///
  /// ```swift
  /// extension Endpoint where Value == [Product] {
  ///   static var featured: Endpoint { .get("/products/featured").sample(.json(Product.previews)) }
  /// }
  ///
  /// let client = APIClient.sampling(timing: .delayed(seconds: 0.5))
  /// let products = try await client.value(.featured)   // Product.previews, half a second later
  /// ```
  ///
  /// - Parameters:
  ///   - baseURL: The base URL requests are built with; `https://api.example.test` by default.
  ///   - timing: `.immediate` or `.delayed(seconds:)`.
  ///   - clock: What delays wait on; a ``TestCallClock`` records them without waiting.
  ///   - stubs: Answers for endpoints without a sample. With none, such a call fails and names the endpoint.
  ///   - configure: Adjusts the rest of the configuration; the ``SampleInterceptor`` is added after your
  ///     interceptors, and the transport stays a ``StubTransport``.
  public static func sampling(
    baseURL: URL = URL(string: "https://api.example.test")!,
    timing: SampleInterceptor.Timing = .immediate,
    clock: (any CallClock)? = nil,
    stubs: [Stub] = [],
    _ configure: (inout Configuration) -> Void = { _ in }
  ) -> APIClient {
    testing(baseURL: baseURL, stubs: stubs) { configuration in
      configure(&configuration)
      configuration.interceptors.append(
        SampleInterceptor(timing, clock: clock, missing: stubs.isEmpty ? .fail : .passThrough))
    }
  }
}
