/// A network interface that is up, as a ``NetworkMonitor`` reports it.
///
/// ```swift
/// if monitor.currentPath.interfaces.contains(where: \.isCellular) { lowerImageQuality() }
/// ```
///
/// Previews and tests make one with ``wifi(_:)``, ``cellular(_:)``, ``wiredEthernet(_:)``, ``loopback(_:)``, or
/// ``init(name:)`` for any other link.
public struct NetworkInterface: Sendable, Hashable, CustomStringConvertible {
  /// What kind of link an interface is; its name is what ``description`` shows.
  enum Kind: String, Sendable, Hashable {
    case wifi, cellular, wiredEthernet, loopback, other
  }

  /// The interface's name, e.g. `en0` or `eth0`.
  public var name: String
  /// What kind of link it is.
  var kind: Kind

  /// An interface that is none of Wi-Fi, cellular, wired Ethernet or loopback: a tunnel, a bridge, a virtual link.
  public init(name: String) {
    self.init(name: name, kind: .other)
  }

  init(name: String, kind: Kind) {
    self.name = name
    self.kind = kind
  }

  /// A Wi-Fi interface.
  public static func wifi(_ name: String) -> NetworkInterface { NetworkInterface(name: name, kind: .wifi) }
  /// A cellular modem.
  public static func cellular(_ name: String) -> NetworkInterface { NetworkInterface(name: name, kind: .cellular) }
  /// A wired Ethernet interface.
  public static func wiredEthernet(_ name: String) -> NetworkInterface {
    NetworkInterface(name: name, kind: .wiredEthernet)
  }
  /// The loopback interface; monitors never report it.
  public static func loopback(_ name: String) -> NetworkInterface { NetworkInterface(name: name, kind: .loopback) }

  /// Whether it is a Wi-Fi interface.
  public var isWiFi: Bool { kind == .wifi }
  /// Whether it is a cellular modem.
  public var isCellular: Bool { kind == .cellular }
  /// Whether it is a wired Ethernet adapter (a bridge or a virtual Ethernet link is not).
  public var isWiredEthernet: Bool { kind == .wiredEthernet }
  /// Whether it is the loopback interface.
  public var isLoopback: Bool { kind == .loopback }

  /// The name and kind, e.g. `eth0 (wiredEthernet)` or `tun0 (other)`.
  public var description: String { "\(name) (\(kind.rawValue))" }
}
