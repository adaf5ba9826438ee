/// What a ``NetworkMonitor`` knows about the network at one moment: the status and the interfaces that are up.
///
/// ```swift
/// let path = monitor.currentPath
/// print(path.status, path.interfaces.map(\.name))   // online ["eth0"]
/// ```
public struct NetworkPath: Sendable, Hashable, CustomStringConvertible {
  /// Whether any interface other than loopback is up.
  public var status: NetworkStatus
  /// The interfaces that are up, loopback excluded, in the order the system lists them.
  public var interfaces: [NetworkInterface]
  /// Whether the path goes over an interface the system considers expensive (cellular, a personal hotspot);
  /// always `false` where the system does not say (Linux).
  public var isExpensive: Bool
  /// Whether the user asked to save data (Low Data Mode); always `false` where the system does not say (Linux).
  public var isConstrained: Bool

  /// Creates a path.
  public init(
    status: NetworkStatus,
    interfaces: [NetworkInterface] = [],
    isExpensive: Bool = false,
    isConstrained: Bool = false
  ) {
    self.status = status
    self.interfaces = interfaces
    self.isExpensive = isExpensive
    self.isConstrained = isConstrained
  }

  /// A path with no interface up.
  public static let offline = NetworkPath(status: .offline)

  /// `online via eth0 (wiredEthernet)` or `offline`.
  public var description: String {
    guard status == .online, !interfaces.isEmpty else { return status.description }
    return "\(status) via \(interfaces.map(\.description).joined(separator: ", "))"
  }
}
