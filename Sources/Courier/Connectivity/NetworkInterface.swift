/// A network interface that is up, as a ``NetworkMonitor`` reports it.
///
/// ```swift
/// if monitor.currentPath.interfaces.contains(where: { $0.kind == .cellular }) { lowerImageQuality() }
/// ```
public struct NetworkInterface: Sendable, Hashable, CustomStringConvertible {
  /// What kind of link an interface is.
  ///
  /// An open set of static members rather than an enum, so new kinds can be added without breaking a `switch`.
  public struct Kind: Sendable, Hashable, CustomStringConvertible {
    enum Base: String, Sendable, Hashable {
      case wifi, cellular, wiredEthernet, loopback, other
    }

    let base: Base

    /// Wi-Fi.
    public static let wifi = Kind(base: .wifi)
    /// A cellular modem.
    public static let cellular = Kind(base: .cellular)
    /// Wired Ethernet.
    public static let wiredEthernet = Kind(base: .wiredEthernet)
    /// The loopback interface; monitors never count it as a connection.
    public static let loopback = Kind(base: .loopback)
    /// Anything else: a tunnel, a bridge, a virtual link.
    public static let other = Kind(base: .other)

    /// The kind's name, e.g. `wifi`.
    public var description: String { base.rawValue }
  }

  /// The interface's name, e.g. `en0` or `eth0`.
  public var name: String
  /// What kind of link it is.
  public var kind: Kind

  /// Creates an interface description.
  public init(name: String, kind: Kind) {
    self.name = name
    self.kind = kind
  }

  /// `eth0 (wiredEthernet)`.
  public var description: String { "\(name) (\(kind))" }
}
