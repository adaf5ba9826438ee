extension NetworkMonitor {
  /// The platform's monitor, one for the whole process: `NWPathMonitor` on iOS, macOS, tvOS and visionOS, the
  /// kernel's interface state under `/sys/class/net`, polled every second, on Linux.
  ///
  /// It reports offline only when the system is sure no connection can be made. A path that a new connection may
  /// bring up (`NWPath.Status.requiresConnection`: a VPN on demand, a cellular link that wakes on use) counts as
  /// online, and so does the time before the system's first answer.
  ///
  /// On watchOS it never reports offline: `NWPathMonitor` stays unsatisfied for an ordinary watchOS app, since
  /// low-level networking there is only for apps such as audio streaming during an active session (Apple's
  /// TN3135), and `URLSession` connects anyway. Calls are therefore attempted and fail with the transport's own
  /// error (``CourierError/isNoConnection``) when the watch is offline. An app that may use low-level networking
  /// can still watch a path with `system(requiredInterfaceType:)` (Apple platforms).
  ///
  /// ```swift
  /// let client = APIClient(baseURL: url) {
  ///   $0.interceptors = [ConnectivityInterceptor(monitor: .system, waitsForConnectivity: true)]
  /// }
  /// ```
  public static let system: NetworkMonitor = system(reading: .current)

  /// A monitor that reads the network from `source`.
  static func system(reading source: SystemNetworkSource) -> NetworkMonitor {
    switch source {
    case .pathMonitor:
      #if canImport(Network)
      return NetworkMonitor(PathNetworkMonitor())
      #else
      return .constant(NetworkPath(status: .unknown))
      #endif
    case .sysfs: return sysfs()
    case .unknown: return .constant(NetworkPath(status: .unknown))
    }
  }
}
