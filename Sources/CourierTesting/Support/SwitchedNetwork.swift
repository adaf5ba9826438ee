import Courier

/// A network the test switches on and off: its ``monitor`` reports what ``set(_:)`` said last, to every stream of
/// paths at once, so code that waits for connectivity (a `ConnectivityInterceptor`, an outbox) can be driven by hand.
///
/// ```swift
/// let network = SwitchedNetwork(.offline)
/// let client = APIClient.testing(transport: transport) {
///   $0.interceptors = [ConnectivityInterceptor(monitor: network.monitor, waitsForConnectivity: true)]
/// }
/// network.set(NetworkPath(isOnline: true))
/// ```
public final class SwitchedNetwork: Sendable {
  private let state: Locked<(path: NetworkPath, listeners: [AsyncStream<NetworkPath>.Continuation])>

  /// A network whose path is `path` until ``set(_:)`` changes it.
  public init(_ path: NetworkPath) {
    state = Locked((path, []))
  }

  /// A monitor of this network.
  public var monitor: NetworkMonitor {
    NetworkMonitor(
      currentPath: { self.state.withLock { $0.path } },
      paths: {
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
        let path = self.state.withLock { state in
          state.listeners.append(continuation)
          return state.path
        }
        continuation.yield(path)
        return stream
      })
  }

  /// The path now.
  public var path: NetworkPath { state.withLock { $0.path } }

  /// Changes the network's path, and tells every stream of the monitor.
  public func set(_ path: NetworkPath) {
    let listeners = state.withLock { state in
      state.path = path
      return state.listeners
    }
    for listener in listeners { listener.yield(path) }
  }
}
