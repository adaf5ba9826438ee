extension NetworkMonitor {
  /// The platform's monitor, one for the whole process: `NWPathMonitor` on Apple platforms, the kernel's interface
  /// state under `/sys/class/net`, polled every second, on Linux.
  ///
  /// ```swift
  /// let client = APIClient(baseURL: url) {
  ///   $0.interceptors = [ConnectivityInterceptor(monitor: .system, waitsForConnectivity: true)]
  /// }
  /// ```
  public static let system: NetworkMonitor = makeSystem()

  /// The platform's monitor, ``system``.
  @available(*, deprecated, message: "Use NetworkMonitor.system")
  public init() {
    self = .system
  }

  private static func makeSystem() -> NetworkMonitor {
    #if canImport(Network)
    return NetworkMonitor(PathNetworkMonitor())
    #else
    return sysfs()
    #endif
  }
}

/// The platform's monitor, now ``NetworkMonitor/system``.
@available(*, deprecated, message: "Use NetworkMonitor, and NetworkMonitor.system for the platform's monitor")
public typealias SystemNetworkMonitor = NetworkMonitor
