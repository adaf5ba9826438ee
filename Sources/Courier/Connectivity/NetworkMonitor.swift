import Foundation

/// Watches the device's network links and reports whether it is online.
///
/// ``system`` is the platform's monitor: `NWPathMonitor` on Apple platforms, the kernel's interface state under
/// `/sys/class/net` on Linux. Use it to show an offline banner, or hand it to a ``ConnectivityInterceptor`` so
/// requests made while offline fail fast or wait:
///
/// ```swift
/// Task {
///   for await isOnline in NetworkMonitor.system.onlineChanges() {
///     await MainActor.run { offlineBanner.isHidden = isOnline }
///   }
/// }
/// ```
///
/// Tests and previews make their own: ``constant(_:)`` for a network that never changes, or
/// ``init(currentPath:paths:)`` to drive it.
public struct NetworkMonitor: Sendable {
  private let readCurrentPath: @Sendable () -> NetworkPath
  private let makePaths: @Sendable () -> AsyncStream<NetworkPath>

  /// Creates a monitor from two closures: one that reads the network now (``currentPath``), and one that returns a
  /// new stream of its states (``paths()``): the current one first, then each change, until the consumer stops
  /// iterating.
  ///
  /// ```swift
  /// let monitor = NetworkMonitor(currentPath: { vpn.currentPath }, paths: { vpn.pathUpdates() })
  /// ```
  public init(
    currentPath: @escaping @Sendable () -> NetworkPath,
    paths: @escaping @Sendable () -> AsyncStream<NetworkPath>
  ) {
    readCurrentPath = currentPath
    makePaths = paths
  }

  /// A monitor that always reports `path`, for previews and tests.
  ///
  /// ```swift
  /// OfflineBanner(monitor: .constant(.offline))
  /// ```
  public static func constant(_ path: NetworkPath) -> NetworkMonitor {
    NetworkMonitor(
      currentPath: { path },
      paths: {
        // Never finished: the stream ends when its consumer stops iterating, as a real monitor's does.
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
        continuation.yield(path)
        return stream
      })
  }

  /// The network as it is now.
  public var currentPath: NetworkPath { readCurrentPath() }

  /// A new stream of the network's states: the current one first, then each change, until the consumer stops
  /// iterating. Every call returns an independent stream.
  public func paths() -> AsyncStream<NetworkPath> { makePaths() }

  /// Whether the device is online now.
  public var isOnline: Bool { currentPath.isOnline }

  /// A new stream of whether the device is online: the current state first, then each change from online to offline
  /// or back.
  ///
  /// ```swift
  /// for await isOnline in monitor.onlineChanges() where isOnline {
  ///   await uploadQueue.resume()
  /// }
  /// ```
  public func onlineChanges() -> AsyncStream<Bool> {
    let paths = paths()
    let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
    let relay = Task {
      var last: Bool?
      for await path in paths where path.isOnline != last {
        last = path.isOnline
        continuation.yield(path.isOnline)
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in relay.cancel() }
    return stream
  }

  /// Waits until the device is online, for at most `timeout` seconds.
  ///
  /// ```swift
  /// guard await monitor.waitUntilOnline(timeout: 30) else { return showOfflineMessage() }
  /// ```
  ///
  /// - Returns: `true` as soon as the device is online (at once when it already is); `false` when `timeout`
  ///   passed first or the task was cancelled.
  public func waitUntilOnline(timeout: TimeInterval) async -> Bool {
    if isOnline { return true }
    return await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await path in self.paths() where path.isOnline { return true }
        return false
      }
      group.addTask {
        try? await sleep(seconds: timeout)
        return false
      }
      let online = await group.next() ?? false
      group.cancelAll()
      return online && !Task.isCancelled
    }
  }
}
