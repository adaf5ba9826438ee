import Courier
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP proxy on 127.0.0.1 in front of a server on another port, whose link flaps: while it is down every open
/// connection is cut and new ones are reset as soon as they are accepted; while it is up bytes pass both ways.
///
/// It runs on threads of its own, never on Swift's shared pool, so a busy pool cannot change when the link flaps.
public final class FlappingProxy: @unchecked Sendable {
  // @unchecked: the mutable state is behind `state`'s lock; `listener` and the ports are written once in init.

  /// The proxy's port.
  public let port: Int
  private let targetPort: Int
  private let listener: Int32
  private let state = Locked(State())

  private struct State {
    var down = false
    var stopped = false
    var open: Set<Int32> = []
    var cuts = 0
    var accepted = 0
  }

  /// A proxy to `127.0.0.1:targetPort`, up, accepting connections.
  public init(to targetPort: Int) throws {
    self.targetPort = targetPort
    let descriptor = Self.tcpSocket()
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = Self.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 128) == 0
          && getsockname(descriptor, socketAddress, &length) == 0
      }
    }
    guard bound else {
      close(descriptor)
      throw POSIXError(.EADDRINUSE)
    }
    listener = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  deinit { stop() }

  /// `http://127.0.0.1:<port>`.
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// How many times the link went down.
  public var cuts: Int { state.withLock { $0.cuts } }

  /// How many connections the proxy accepted.
  public var accepted: Int { state.withLock { $0.accepted } }

  /// Takes the link down (cutting every open connection) or brings it up.
  public func setDown(_ down: Bool) {
    let cut: [Int32] = state.withLock { state in
      guard down, !state.down else {
        state.down = down
        return []
      }
      state.down = true
      state.cuts += 1
      return Array(state.open)
    }
    for descriptor in cut { Self.reset(descriptor) }
  }

  /// Flaps the link on a thread of its own until `stopFlapping()` or `stop()`: up for a random time in `up`, then down
  /// for one in `down`, in seconds.
  public func startFlapping(up: ClosedRange<Double>, down: ClosedRange<Double>) {
    let flapping = Locked(true)
    stopFlappingAction.withLock { $0 = { flapping.withLock { $0 = false } } }
    Thread.detachNewThread { [self] in
      while flapping.withLock({ $0 }), !state.withLock({ $0.stopped }) {
        Thread.sleep(forTimeInterval: Double.random(in: up))
        guard flapping.withLock({ $0 }) else { break }
        setDown(true)
        Thread.sleep(forTimeInterval: Double.random(in: down))
        setDown(false)
      }
    }
  }

  private let stopFlappingAction = Locked<(@Sendable () -> Void)?>(nil)

  /// Stops flapping and leaves the link up.
  public func stopFlapping() {
    stopFlappingAction.withLock { $0 }?()
    setDown(false)
  }

  /// Stops accepting and cuts every connection.
  public func stop() {
    let open: [Int32]? = state.withLock { state in
      guard !state.stopped else { return nil }
      state.stopped = true
      return Array(state.open)
    }
    guard let open else { return }
    stopFlappingAction.withLock { $0 }?()
    shutdown(listener, Int32(SHUT_RDWR))
    for descriptor in open { Self.reset(descriptor) }
  }

  // MARK: Connections

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        break
      }
      let (stopped, down) = state.withLock { ($0.stopped, $0.down) }
      if stopped { break }
      if down {
        Self.resetAndClose(client)
        continue
      }
      let upstream = Self.tcpSocket()
      var address = Self.loopback(port: targetPort)
      let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      guard connected else {
        close(upstream)
        Self.resetAndClose(client)
        continue
      }
      state.withLock { state in
        state.accepted += 1
        state.open.insert(client)
        state.open.insert(upstream)
      }
      let pumps = Locked(2)
      let finish: @Sendable () -> Void = { [self] in
        // The second pump to end closes both sockets: no descriptor is closed while the other pump reads it.
        guard
          pumps.withLock({
            $0 -= 1; return $0
          }) == 0
        else { return }
        state.withLock { state in
          state.open.remove(client)
          state.open.remove(upstream)
        }
        close(client)
        close(upstream)
      }
      Thread.detachNewThread { Self.pump(from: client, to: upstream, then: finish) }
      Thread.detachNewThread { Self.pump(from: upstream, to: client, then: finish) }
    }
    close(listener)
  }

  private static func pump(from source: Int32, to destination: Int32, then finish: @Sendable () -> Void) {
    var buffer = [UInt8](repeating: 0, count: 16_384)
    loop: while true {
      let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      var sent = 0
      while sent < count {
        let written = buffer.withUnsafeBytes { bytes in
          send(destination, bytes.baseAddress! + sent, count - sent, Self.noSignal)
        }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { break loop }
        sent += written
      }
    }
    // Whatever ended this direction ends the other too.
    shutdown(source, Int32(SHUT_RDWR))
    shutdown(destination, Int32(SHUT_RDWR))
    finish()
  }

  // MARK: Sockets

  #if canImport(Glibc)
  private static let noSignal = Int32(MSG_NOSIGNAL)
  #else
  private static let noSignal: Int32 = 0
  #endif

  private static func tcpSocket() -> Int32 {
    #if canImport(Glibc)
    return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    var on: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    return descriptor
    #endif
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  /// Cuts a connection with a reset: pending bytes are dropped, and both pumps wake.
  private static func reset(_ descriptor: Int32) {
    var linger = resetOnClose()
    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout.size(ofValue: linger)))
    shutdown(descriptor, Int32(SHUT_RDWR))
  }

  private static func resetAndClose(_ descriptor: Int32) {
    var linger = resetOnClose()
    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout.size(ofValue: linger)))
    close(descriptor)
  }
}

/// `SO_LINGER` on with a zero timeout: closing sends a reset.
private func resetOnClose() -> linger {
  linger(l_onoff: 1, l_linger: 0)
}
