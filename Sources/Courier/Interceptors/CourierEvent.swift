import Foundation
import HTTPTypes

/// Something that happened during a call, for observers such as metrics, tracing or a debug console.
public enum CourierEvent: Sendable {
  /// The call's request went out on a connection (its first attempt; `request` as the interceptors left it). Never
  /// sent for a call that failed before reaching a server.
  case started(callID: UInt64, request: HTTPRequest)
  /// A response head arrived from the transport for one attempt.
  case responseReceived(callID: UInt64, response: HTTPResponse, attempt: Int)
  /// The retry interceptor will send the call again after `delay` seconds.
  case retrying(callID: UInt64, attempt: Int, delay: TimeInterval, reason: String)
  /// The auth interceptor began refreshing credentials.
  case refreshing(callID: UInt64)
  /// The call ended, successfully or not (`error` is `nil` on success), after `duration` seconds (from the start of
  /// `send` to the end of decoding) and `attempts` trips to the transport, having handed `bytesSent` request body
  /// bytes to the transport (all attempts) and received `bytesReceived` response body bytes (the final attempt);
  /// `status` is the final one, when a response arrived.
  ///
  /// ```swift
  /// case .finished(_, let duration, let attempts, _, _, let status, _):
  ///   let code = status.map { "\($0.code)" } ?? "-"
  ///   print("finished in \(Int(duration * 1000)) ms after \(attempts) attempts: \(code)")
  /// ```
  case finished(
    callID: UInt64, duration: TimeInterval, attempts: Int, bytesSent: Int64, bytesReceived: Int64,
    status: HTTPResponse.Status?, error: CourierError?)
}
