import Foundation
import HTTPTypes

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
