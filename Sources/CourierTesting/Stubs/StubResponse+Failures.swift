import Courier
import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubResponse {
  /// The request times out: a `CourierError` of kind `timeout`, which the retry interceptor retries.
  public static var timeout: StubResponse {
    .failure(.timeout, "The request timed out (stubbed)")
  }

  /// The host cannot be reached: a `CourierError` of kind `noConnection`, as when the device is offline.
  public static var noConnection: StubResponse {
    .failure(.noConnection, "The host could not be reached (stubbed)")
  }

  /// The connection drops mid-request: a `CourierError` of kind `connectionLost`.
  public static var connectionLost: StubResponse {
    .failure(.connectionLost, "The connection was lost (stubbed)")
  }

  /// A `CourierError` of `kind` carrying the request, as a real transport throws it.
  public static func failure(_ kind: CourierError.Kind, _ detail: String) -> StubResponse {
    StubResponse(.failure { request in CourierError(kind, detail, request: request) })
  }

  /// A `URLError`, as `URLSession` throws it; the client classifies it (`.timedOut` is a timeout,
  /// `.notConnectedToInternet` no connection, `.networkConnectionLost` a lost connection, …).
  public static func urlError(_ code: URLError.Code) -> StubResponse {
    StubResponse(.failure { _ in URLError(code) })
  }

  /// Any error; the client wraps what it cannot classify as a `transport` failure.
  public static func error(_ error: any Error) -> StubResponse {
    StubResponse(.failure { _ in error })
  }
}
