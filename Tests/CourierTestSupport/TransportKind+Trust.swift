import Courier
import CourierAsyncHTTPClient

extension TransportKind {
  /// A new transport of this kind that trusts servers by `policy`, shut down when released; throws the
  /// ``CourierError/Kind-swift.struct/tls`` error with which a transport refuses a policy it cannot enforce
  /// (`URLSessionTransport` on Linux refuses custom roots).
  public func makeTransport(trusting policy: ServerTrustPolicy) throws -> any HTTPTransport {
    switch self {
    case .urlSession:
      return try URLSessionTransport(serverTrust: policy)
    case .asyncHTTPClient:
      var configuration = AsyncHTTPClientTransport.Configuration()
      try configuration.trust(policy)
      return AsyncHTTPClientTransport(configuration: configuration)
    }
  }
}
