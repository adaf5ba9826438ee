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

/// Where a call reports its ``CourierEvent``s: the client's observer, if any.
struct EventSink: Sendable {
  /// What a call records as it goes, behind one lock (a sink is made for every call).
  struct State {
    var attempts = 0
    var bytesSent: Int64 = 0
    var handedToTransport = false
    var redirects: [URL] = []
    var waitingForNetwork = false
  }

  let handler: (@Sendable (CourierEvent) -> Void)?
  let state: Locked<State>

  /// A sink that reports to `handler`.
  init(_ handler: (@Sendable (CourierEvent) -> Void)? = nil) {
    self.handler = handler
    state = Locked(State())
  }

  /// The attempts made so far and the request body bytes they handed to the transport.
  var counters: (attempts: Int, bytesSent: Int64) { state.withLock { ($0.attempts, $0.bytesSent) } }

  /// Reports `event`.
  func send(_ event: CourierEvent) {
    handler?(event)
  }

  /// Whether the call is waiting for the network to come back (``ConnectivityInterceptor``).
  var isWaitingForNetwork: Bool {
    get { state.withLock { $0.waitingForNetwork } }
    nonmutating set { state.withLock { $0.waitingForNetwork = newValue } }
  }

  /// Records that the call was sent on to `url`.
  func recordRedirect(to url: URL) {
    state.withLock { $0.redirects.append(url) }
  }

  /// The URLs the call was sent on to, in order.
  var redirects: [URL] { state.withLock { $0.redirects } }

  /// Counts an attempt handed to the transport with `bytes` of body; returns whether it is the call's first.
  func countAttempt(bytes: Int64) -> Bool {
    state.withLock { state in
      state.attempts += 1
      state.bytesSent += bytes
      defer { state.handedToTransport = true }
      return !state.handedToTransport
    }
  }
}
