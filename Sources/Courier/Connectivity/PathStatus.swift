/// What the system says of the network path, in the words of Network framework's `NWPath.Status`, and what Courier
/// makes of it: a request is attempted unless the system is sure no path can be had.
enum PathStatus: Sendable, Hashable {
  /// A path is up (`.satisfied`).
  case satisfied
  /// No path is up, but making a connection may bring one up: a VPN on demand, a cellular link that wakes on use
  /// (`.requiresConnection`).
  case requiresConnection
  /// No path is up, and a connection would not bring one up (`.unsatisfied`).
  case unsatisfied
  /// The system cannot say: before its first answer, a status newer than Courier knows, or on watchOS, where
  /// ordinary apps are not given the path (TN3135).
  case unknown

  /// Whether a request may connect: for every status but ``unsatisfied``, so that a call is never failed as
  /// offline on a guess; when the network really is down, the transport reports its own error.
  var mayConnect: Bool { self != .unsatisfied }
}

extension NetworkPath {
  /// A path in `status`, online when a request may connect.
  init(
    status: PathStatus,
    interfaces: [NetworkInterface] = [],
    isExpensive: Bool = false,
    isConstrained: Bool = false
  ) {
    self.init(
      isOnline: status.mayConnect, interfaces: interfaces, isExpensive: isExpensive, isConstrained: isConstrained)
  }
}

/// Where ``NetworkMonitor/system`` reads the network from.
enum SystemNetworkSource: Sendable, Hashable {
  /// `NWPathMonitor` (Apple platforms but watchOS).
  case pathMonitor
  /// The kernel's interface state under `/sys/class/net` (Linux).
  case sysfs
  /// Nowhere: on watchOS, `NWPathMonitor` stays unsatisfied for apps that may not use low-level networking
  /// (Apple TN3135: only audio streaming and a few other kinds of app may), so the monitor reports
  /// ``PathStatus/unknown`` and every request is attempted.
  case unknown

  /// The source for a platform that has Network framework or not, and is watchOS or not.
  static func choose(hasNetworkFramework: Bool, isWatchOS: Bool) -> SystemNetworkSource {
    if isWatchOS { return .unknown }
    return hasNetworkFramework ? .pathMonitor : .sysfs
  }

  /// The source of the platform this runs on.
  static var current: SystemNetworkSource {
    #if os(watchOS)
    choose(hasNetworkFramework: true, isWatchOS: true)
    #elseif canImport(Network)
    choose(hasNetworkFramework: true, isWatchOS: false)
    #else
    choose(hasNetworkFramework: false, isWatchOS: false)
    #endif
  }
}
