import Foundation

extension NetworkMonitor {
  /// A monitor that reads interface state from the Linux kernel's `/sys/class/net` (or a tree laid out like it,
  /// such as the host's, mounted into a container), polling for changes: what ``system`` is on Linux, with the
  /// directory, the poll interval and the interfaces that count up to you.
  ///
  /// An interface counts as up when its `operstate` is `up` (or `unknown` with `carrier` 1, as tunnels report) and
  /// its `IFF_UP` flag is set; loopback never counts. Where the directory cannot be listed (another platform, a
  /// sandbox), the monitor reports online, so that it never blocks requests it cannot judge. Nothing is read until
  /// the monitor is used.
  ///
  /// ```swift
  /// // The real interfaces, checked twice a second.
  /// let monitor = NetworkMonitor.sysfs(pollInterval: 0.5)
  ///
  /// // Only the Wi-Fi and Ethernet links, ignoring bridges and containers' virtual links.
  /// let physical = NetworkMonitor.sysfs { $0.hasPrefix("wl") || $0.hasPrefix("en") || $0.hasPrefix("eth") }
  /// ```
  ///
  /// - Parameters:
  ///   - root: The directory of interfaces; `/sys/class/net` by default.
  ///   - pollInterval: How often streams re-read the tree, in seconds; 1 by default, at least 0.01.
  ///   - includes: Which interfaces, by name, may count as a connection; all but loopback by default.
  public static func sysfs(
    root: URL = URL(fileURLWithPath: "/sys/class/net", isDirectory: true),
    pollInterval: TimeInterval = 1,
    includes: @escaping @Sendable (_ interfaceName: String) -> Bool = { _ in true }
  ) -> NetworkMonitor {
    let monitor = SysfsNetworkMonitor(root: root, pollInterval: pollInterval, includes: includes)
    return NetworkMonitor(currentPath: { monitor.currentPath }, paths: { monitor.paths() })
  }
}

/// Reads interface state from a tree laid out like Linux's `/sys/class/net`, polling for changes; see
/// ``NetworkMonitor/sysfs(root:pollInterval:includes:)``.
struct SysfsNetworkMonitor: Sendable {
  /// How often streams re-read the tree, in seconds.
  let pollInterval: TimeInterval
  private let reader: SysfsInterfaceReader

  init(root: URL, pollInterval: TimeInterval, includes: @escaping @Sendable (String) -> Bool) {
    self.pollInterval = max(pollInterval, 0.01)
    reader = SysfsInterfaceReader(root: root, includes: includes)
  }

  /// Reads the tree now.
  var currentPath: NetworkPath { reader.read() }

  /// The current path at once, then each change found by polling every `pollInterval` seconds.
  func paths() -> AsyncStream<NetworkPath> {
    let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
    let first = reader.read()
    continuation.yield(first)
    let poller = Task { [reader, pollInterval] in
      var last = first
      while true {
        do {
          try await sleep(seconds: pollInterval)
        } catch {
          break
        }
        let path = reader.read()
        if path != last {
          last = path
          continuation.yield(path)
        }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in poller.cancel() }
    return stream
  }
}
