/// What a ``NetworkMonitor`` knows about the network at one moment: whether it is online and the interfaces that are
/// up.
///
/// ```swift
/// let path = monitor.currentPath
/// print(path.isOnline, path.interfaces.map(\.name))   // true ["eth0"]
/// ```
public struct NetworkPath: Sendable, Hashable, CustomStringConvertible {
  /// Whether a request may connect: an interface other than loopback is up, or the system says a new connection
  /// may bring one up (a VPN on demand, a cellular link that wakes on use), or cannot tell (see
  /// ``NetworkMonitor/system`` on watchOS).
  ///
  /// It says nothing about whether a given server can be reached: a request can still fail with
  /// ``CourierError/isNoConnection`` while online.
  public var isOnline: Bool
  /// The interfaces that are up, loopback excluded, in the order the system lists them.
  public var interfaces: [NetworkInterface]
  /// Whether the path goes over an interface the system considers expensive (cellular, a personal hotspot);
  /// always `false` where the system does not say (Linux).
  public var isExpensive: Bool
  /// Whether the user asked to save data (Low Data Mode); always `false` where the system does not say (Linux).
  public var isConstrained: Bool

  /// Creates a path.
  ///
  /// ```swift
  /// let onWiFi = NetworkPath(isOnline: true, interfaces: [.wifi("en0")])
  /// ```
  public init(
    isOnline: Bool,
    interfaces: [NetworkInterface] = [],
    isExpensive: Bool = false,
    isConstrained: Bool = false
  ) {
    self.isOnline = isOnline
    self.interfaces = interfaces
    self.isExpensive = isExpensive
    self.isConstrained = isConstrained
  }

  /// A path with no interface up.
  public static let offline = NetworkPath(isOnline: false)

  /// `online via eth0 (wiredEthernet)`, `online` or `offline`.
  public var description: String {
    guard isOnline else { return "offline" }
    guard !interfaces.isEmpty else { return "online" }
    return "online via \(interfaces.map(\.description).joined(separator: ", "))"
  }
}
