import Foundation

/// Watches the device's network links and reports whether it is online.
///
/// ``SystemNetworkMonitor`` is the platform's monitor: `NWPathMonitor` on Apple platforms, the kernel's interface
/// state under `/sys/class/net` on Linux. Use it to show an offline banner, or hand it to a
/// ``ConnectivityInterceptor`` so requests made while offline fail fast or wait:
///
/// ```swift
/// let monitor = SystemNetworkMonitor()
/// Task {
///   for await status in monitor.statuses() {
///     await MainActor.run { offlineBanner.isHidden = status == .online }
///   }
/// }
/// ```
///
/// Conform your own type to drive connectivity in tests or previews; only ``currentPath`` and ``paths()`` are
/// required.
public protocol NetworkMonitor: Sendable {
  /// The network as it is now.
  var currentPath: NetworkPath { get }

  /// A new stream of the network's states: the current one first, then each change, until the consumer stops
  /// iterating. Every call returns an independent stream.
  func paths() -> AsyncStream<NetworkPath>
}

extension NetworkMonitor {
  /// Whether the device is online now.
  public var status: NetworkStatus { currentPath.status }

  /// A new stream of statuses: the current one first, then each change from online to offline or back.
  ///
  /// ```swift
  /// for await status in monitor.statuses() where status == .online {
  ///   await uploadQueue.resume()
  /// }
  /// ```
  public func statuses() -> AsyncStream<NetworkStatus> {
    let paths = paths()
    let (stream, continuation) = AsyncStream.makeStream(of: NetworkStatus.self)
    let relay = Task {
      var last: NetworkStatus?
      for await path in paths where path.status != last {
        last = path.status
        continuation.yield(path.status)
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
    if currentPath.status == .online { return true }
    return await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await path in self.paths() where path.status == .online { return true }
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
