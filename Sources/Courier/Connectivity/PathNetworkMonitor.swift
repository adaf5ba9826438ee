#if canImport(Network)
import Foundation
@preconcurrency import Network

extension NetworkMonitor {
  /// The platform's monitor limited to one type of interface: online only while an interface of that type is up,
  /// or may come up for a new connection. Apple platforms only. On watchOS the path stays unsatisfied unless the app
  /// may use low-level networking (Apple's TN3135), so only such an app should use it there.
  ///
  /// ```swift
  /// let wifiOnly = NetworkMonitor.system(requiredInterfaceType: .wifi)
  /// for await isOnline in wifiOnly.onlineChanges() { syncButton.isEnabled = isOnline }
  /// ```
  ///
  /// The monitor starts watching when it is made and stops when its last copy is released.
  public static func system(requiredInterfaceType: NWInterface.InterfaceType) -> NetworkMonitor {
    NetworkMonitor(PathNetworkMonitor(requiredInterfaceType: requiredInterfaceType))
  }

  /// A monitor that reads `monitor`, keeping it (and its `NWPathMonitor`) alive as long as any copy is.
  init(_ monitor: PathNetworkMonitor) {
    self.init(currentPath: { monitor.currentPath }, paths: { monitor.paths() })
  }
}

/// Watches the network with `NWPathMonitor`: ``NetworkMonitor/system`` on Apple platforms.
///
/// It starts watching when it is created and stops when it is released. Until the system delivers the first path
/// (within milliseconds of creation) it reports ``PathStatus/unknown``, online, so that it never blocks a request it
/// cannot judge yet; how each status counts is ``PathStatus/mayConnect``.
final class PathNetworkMonitor: Sendable {
  private struct State {
    var path: NetworkPath?
    var continuations: [UInt64: AsyncStream<NetworkPath>.Continuation] = [:]
    var nextID: UInt64 = 0
  }

  private let monitor: NWPathMonitor
  private let state = Locked(State())

  /// Starts watching every interface, or only those of `requiredInterfaceType`.
  init(requiredInterfaceType: NWInterface.InterfaceType? = nil) {
    monitor = requiredInterfaceType.map { NWPathMonitor(requiredInterfaceType: $0) } ?? NWPathMonitor()
    monitor.pathUpdateHandler = { [state] update in
      let path = NetworkPath(update)
      let continuations = state.withLock { state in
        state.path = path
        return Array(state.continuations.values)
      }
      for continuation in continuations { continuation.yield(path) }
    }
    monitor.start(queue: DispatchQueue(label: "dev.courier.network-monitor"))
  }

  deinit {
    monitor.cancel()
    let continuations = state.withLock { Array($0.continuations.values) }
    for continuation in continuations { continuation.finish() }
  }

  /// The last path the system delivered; online until the first one arrives.
  var currentPath: NetworkPath {
    state.withLock { $0.path } ?? NetworkPath(status: .unknown)
  }

  /// The current path (once the system has delivered one), then every path the system delivers.
  func paths() -> AsyncStream<NetworkPath> {
    let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
    let id = state.withLock { state in
      state.nextID += 1
      state.continuations[state.nextID] = continuation
      if let path = state.path { continuation.yield(path) }
      return state.nextID
    }
    continuation.onTermination = { [state] _ in
      _ = state.withLock { $0.continuations.removeValue(forKey: id) }
    }
    return stream
  }
}

extension NetworkPath {
  /// Converts a Network framework path.
  init(_ path: NWPath) {
    let interfaces = path.availableInterfaces.filter { $0.type != .loopback }.map { interface in
      NetworkInterface(name: interface.name, kind: NetworkInterface.Kind(interface.type))
    }
    self.init(
      status: PathStatus(path.status), interfaces: interfaces, isExpensive: path.isExpensive,
      isConstrained: path.isConstrained)
  }
}

extension PathStatus {
  /// Converts a Network framework status.
  init(_ status: NWPath.Status) {
    switch status {
    case .satisfied: self = .satisfied
    case .requiresConnection: self = .requiresConnection
    case .unsatisfied: self = .unsatisfied
    @unknown default: self = .unknown
    }
  }
}

extension NetworkInterface.Kind {
  /// Converts a Network framework interface type.
  init(_ type: NWInterface.InterfaceType) {
    switch type {
    case .wifi: self = .wifi
    case .cellular: self = .cellular
    case .wiredEthernet: self = .wiredEthernet
    case .loopback: self = .loopback
    default: self = .other
    }
  }
}
#endif
