#if canImport(Network)
import Foundation
@preconcurrency import Network

/// A ``NetworkMonitor`` backed by `NWPathMonitor`: ``SystemNetworkMonitor`` on Apple platforms.
///
/// The monitor starts watching when it is created and stops when it is released. Until the system delivers the first
/// path (within milliseconds of creation) it reports online, so that it never blocks a request it cannot judge yet.
///
/// ```swift
/// let wifiOnly = PathNetworkMonitor(requiredInterfaceType: .wifi)
/// for await status in wifiOnly.statuses() { syncButton.isEnabled = status == .online }
/// ```
public final class PathNetworkMonitor: NetworkMonitor {
  private struct State {
    var path: NetworkPath?
    var continuations: [UInt64: AsyncStream<NetworkPath>.Continuation] = [:]
    var nextID: UInt64 = 0
  }

  private let monitor: NWPathMonitor
  private let state = Locked(State())

  /// Starts watching every interface, or only those of `requiredInterfaceType`.
  public init(requiredInterfaceType: NWInterface.InterfaceType? = nil) {
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
  public var currentPath: NetworkPath {
    state.withLock { $0.path } ?? NetworkPath(status: .online)
  }

  /// The current path (once the system has delivered one), then every path the system delivers.
  public func paths() -> AsyncStream<NetworkPath> {
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
      status: path.status == .satisfied ? .online : .offline, interfaces: interfaces, isExpensive: path.isExpensive,
      isConstrained: path.isConstrained)
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
