import Foundation
import HTTPTypes

/// Checks the network before each request: while the device is offline, a request fails at once with
/// ``CourierError/isNoConnection`` instead of waiting for a transport timeout, or, with `waitsForConnectivity`,
/// waits for the network to come back.
///
/// ```swift
/// let client = APIClient(baseURL: url) {
///   $0.interceptors = [
///     ConnectivityInterceptor(waitsForConnectivity: true),
///     AuthInterceptor(...),
///     RetryInterceptor(),
///   ]
/// }
/// ```
///
/// Put it first, so an offline request neither refreshes a token nor uses up retries. A waiting request waits at
/// most its timeout (``Endpoint/timeout`` or the client's), then fails with `noConnection`; the transport's own
/// timeout starts only once it is sent. Cancelling the calling task ends the wait with a cancellation error.
///
/// The network state comes from ``NetworkMonitor/system`` unless you pass another monitor (a fake one in tests).
/// The check reads the monitor's state, which can lag the network by a polling interval, and "online" only means a
/// link is up; requests can still fail with `noConnection` when a server cannot be reached.
public struct ConnectivityInterceptor: Interceptor {
  /// Where the network state comes from.
  public let monitor: NetworkMonitor
  /// Whether a request made while offline waits for the network (`true`) or fails at once (`false`).
  public let waitsForConnectivity: Bool

  /// Creates the interceptor.
  ///
  /// - Parameters:
  ///   - monitor: Where the network state comes from; ``NetworkMonitor/system``, the platform's, by default.
  ///   - waitsForConnectivity: Whether requests made while offline wait up to their timeout for the network;
  ///     `false` by default: they fail at once.
  public init(monitor: NetworkMonitor = .system, waitsForConnectivity: Bool = false) {
    self.monitor = monitor
    self.waitsForConnectivity = waitsForConnectivity
  }

  /// Passes the request on when online; otherwise fails it or waits, as configured.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    if monitor.isOnline {
      return try await next(request, body, context)
    }
    guard waitsForConnectivity else {
      throw CourierError(.noConnection, "The device is offline: no network interface is up", request: request)
    }
    let timeout = context.timeout
    // Stays set when the wait fails, so that a call whose deadline ends the wait reports being offline.
    context.events.isWaitingForNetwork = true
    guard await monitor.waitUntilOnline(timeout: timeout) else {
      if Task.isCancelled {
        throw CourierError(.cancelled, "The request was cancelled while waiting for the network", request: request)
      }
      throw CourierError(
        .noConnection, "The device stayed offline for the request's timeout of \(timeout) s", request: request)
    }
    context.events.isWaitingForNetwork = false
    return try await next(request, body, context)
  }
}
