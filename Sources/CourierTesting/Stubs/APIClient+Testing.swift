import Courier
import Foundation

extension APIClient {
  /// A client for tests whose transport is a ``StubTransport``: it answers only from stubs, so a test can never
  /// reach the network by accident.
  ///
  /// ```swift
  /// let client = APIClient.testing(stubs: [.get("/users/me").reply(.json(me))])
  /// #expect(try await client.value(Endpoint<User>.get("/users/me")) == me)
  /// ```
  ///
  /// - Parameters:
  ///   - baseURL: The base URL; `https://api.example.test` by default (`.test` is reserved and never resolves).
  ///   - stubs: The stubs; reach the transport later through ``stubTransport``.
  ///   - configure: Adjusts the rest of the configuration (interceptors, decoder, …). The transport stays the stub
  ///     transport whatever this closure sets.
  public static func testing(
    baseURL: URL = URL(string: "https://api.example.test")!,
    stubs: [Stub] = [],
    _ configure: (inout Configuration) -> Void = { _ in }
  ) -> APIClient {
    testing(baseURL: baseURL, transport: StubTransport(stubs: stubs), configure)
  }

  /// A client for tests over `transport`, which you keep to add stubs and to read the recorded requests.
  ///
  /// ```swift
  /// let transport = StubTransport(.post("/posts").reply(.json(post, status: .created)))
  /// let client = APIClient.testing(transport: transport) { $0.interceptors = [RetryInterceptor()] }
  /// ```
  ///
  /// When `transport` was made without a base URL it takes the client's, so stub paths are relative to it.
  public static func testing(
    baseURL: URL = URL(string: "https://api.example.test")!,
    transport: StubTransport,
    _ configure: (inout Configuration) -> Void = { _ in }
  ) -> APIClient {
    var configuration = Configuration(baseURL: baseURL, transport: transport)
    configure(&configuration)
    configuration.transport = transport
    transport.adoptBaseURL(configuration.baseURL)
    return APIClient(configuration: configuration)
  }

  /// The client's transport when it is a ``StubTransport``, as in a client made by
  /// ``testing(baseURL:stubs:_:)``.
  public var stubTransport: StubTransport? {
    configuration.transport as? StubTransport
  }
}
