#if canImport(Network)
/// The platform's ``NetworkMonitor``: ``PathNetworkMonitor`` (`NWPathMonitor`) on Apple platforms,
/// ``SysfsNetworkMonitor`` (`/sys/class/net`) on Linux.
///
/// ```swift
/// let client = APIClient(baseURL: url) {
///   $0.interceptors = [ConnectivityInterceptor(monitor: SystemNetworkMonitor(), waitsForConnectivity: true)]
/// }
/// ```
public typealias SystemNetworkMonitor = PathNetworkMonitor
#else
/// The platform's ``NetworkMonitor``: `PathNetworkMonitor` (`NWPathMonitor`) on Apple platforms,
/// ``SysfsNetworkMonitor`` (`/sys/class/net`) on Linux.
///
/// ```swift
/// let client = APIClient(baseURL: url) {
///   $0.interceptors = [ConnectivityInterceptor(monitor: SystemNetworkMonitor(), waitsForConnectivity: true)]
/// }
/// ```
public typealias SystemNetworkMonitor = SysfsNetworkMonitor
#endif
