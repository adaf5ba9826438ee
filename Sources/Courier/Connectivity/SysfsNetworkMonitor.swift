import Foundation

/// A ``NetworkMonitor`` that reads interface state from the Linux kernel's `/sys/class/net`, polling for changes.
///
/// An interface counts as up when its `operstate` is `up` (or `unknown` with `carrier` 1, as tunnels report) and
/// its `IFF_UP` flag is set; loopback never counts. This is ``SystemNetworkMonitor`` on Linux, and works anywhere a
/// tree of that shape exists, which is how tests drive it:
///
/// ```swift
/// // The real interfaces, checked twice a second.
/// let monitor = SysfsNetworkMonitor(pollInterval: 0.5)
///
/// // Only the Wi-Fi and Ethernet links, ignoring bridges and containers' virtual links.
/// let physical = SysfsNetworkMonitor { $0.hasPrefix("wl") || $0.hasPrefix("en") || $0.hasPrefix("eth") }
///
/// // A fake tree in a test: write <root>/eth0/operstate, then flip it from "up" to "down".
/// let fake = SysfsNetworkMonitor(root: temporaryDirectory, pollInterval: 0.02)
/// ```
///
/// When the tree cannot be listed at all (no sysfs in a sandbox), the monitor reports online, so that it never
/// blocks requests it cannot judge.
public struct SysfsNetworkMonitor: NetworkMonitor {
  /// Linux's directory of network interfaces.
  public static let defaultRoot = URL(fileURLWithPath: "/sys/class/net", isDirectory: true)

  /// The directory read, one subdirectory per interface.
  public let root: URL
  /// How often streams re-read the tree, in seconds.
  public let pollInterval: TimeInterval
  private let reader: SysfsInterfaceReader

  /// Creates a monitor; nothing is read until ``currentPath`` or ``paths()`` is used.
  ///
  /// - Parameters:
  ///   - root: The directory to read; `/sys/class/net` by default.
  ///   - pollInterval: How often streams re-read it, in seconds; 1 by default, at least 0.01.
  ///   - includes: Which interfaces, by name, may count as a connection; all but loopback by default.
  public init(
    root: URL = SysfsNetworkMonitor.defaultRoot,
    pollInterval: TimeInterval = 1,
    includes: @escaping @Sendable (_ interfaceName: String) -> Bool = { _ in true }
  ) {
    self.root = root
    self.pollInterval = max(pollInterval, 0.01)
    reader = SysfsInterfaceReader(root: root, includes: includes)
  }

  /// Reads the tree now.
  public var currentPath: NetworkPath { reader.read() }

  /// The current path at once, then each change found by polling every ``pollInterval`` seconds.
  public func paths() -> AsyncStream<NetworkPath> {
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
