import Courier
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP proxy on 127.0.0.1 in front of a server on another port, whose link flaps: while it is down every open
/// connection is cut and new ones are reset as soon as they are accepted; while it is up bytes pass both ways. A test
/// takes it down and up itself (``setDown(_:)``), or lets it flap by its connections (``startFlapping(seed:)``): each
/// connection refused, cut in its request, cut in its response or passed, as a seeded schedule says — the same cuts
/// however fast or slow the machine runs.
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
    var connections = 0
    var schedule: FlappingSchedule?
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

  /// Flaps the link by its connections until ``stopFlapping()``: of every three connections, the third passes whole
  /// and each of the others is, as the schedule seeded with `seed` says, refused at once, cut after some bytes of its
  /// request, or cut in the body of its response (when the server acted on the request already).
  ///
  /// With `cutsResponses: false`, a connection the schedule would cut in its response passes whole: FoundationNetworking's
  /// URLSession on Linux never ends a task whose response body stops with the connection (it waits for its timeout).
  public func startFlapping(seed: UInt64, cutsResponses: Bool = true) {
    state.withLock { $0.schedule = FlappingSchedule(seed: seed, cutsResponses: cutsResponses) }
  }

  /// Stops flapping and leaves the link up.
  public func stopFlapping() {
    state.withLock { $0.schedule = nil }
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
      let (stopped, down, fate) = state.withLock { state -> (Bool, Bool, FlappingSchedule.Fate) in
        defer { state.connections += 1 }
        return (state.stopped, state.down, state.schedule?.fate(of: state.connections) ?? .passed)
      }
      if stopped { break }
      if down || fate == .refused {
        if fate == .refused { state.withLock { $0.cuts += 1 } }
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
      let (requestLimit, responseLimit): (Int, Int) =
        switch fate {
        case .cutInRequest(let bytes): (bytes, .max)
        case .cutInResponse(let bytes): (.max, bytes)
        case .passed, .refused: (.max, .max)
        }
      let cut: @Sendable () -> Void = { [self] in
        state.withLock { $0.cuts += 1 }
        Self.reset(client)
        Self.reset(upstream)
      }
      Thread.detachNewThread {
        Self.pump(from: client, to: upstream, cutAfter: requestLimit, afterHead: false, cut, then: finish)
      }
      Thread.detachNewThread {
        Self.pump(from: upstream, to: client, cutAfter: responseLimit, afterHead: true, cut, then: finish)
      }
    }
    close(listener)
  }

  /// Relays bytes from `source` to `destination` until either ends; after `limit` bytes (counted from the end of the
  /// first message head, `afterHead`) it relays no more and `cut`s the connection.
  ///
  /// A response is cut only past its head: FoundationNetworking's URLSession (swift-corelibs-foundation) stops the
  /// process with "Transfer completed, but there's no response" when a connection ends inside a response head.
  private static func pump(
    from source: Int32, to destination: Int32, cutAfter limit: Int, afterHead: Bool, _ cut: @Sendable () -> Void,
    then finish: @Sendable () -> Void
  ) {
    var buffer = [UInt8](repeating: 0, count: 16_384)
    var relayed = 0
    var head = HeadEnd(seen: !afterHead)
    loop: while true {
      let received = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
      if received < 0, errno == EINTR { continue }
      guard received > 0 else { break }
      var count = received
      if limit < .max {
        let counted = head.bytesPastTheHead(in: buffer[0..<received])
        count = received - counted + min(counted, limit - relayed)
        relayed += min(counted, limit - relayed)
      }
      var sent = 0
      while sent < count {
        let written = buffer.withUnsafeBytes { bytes in
          send(destination, bytes.baseAddress! + sent, count - sent, Self.noSignal)
        }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { break loop }
        sent += written
      }
      if relayed >= limit {
        cut()
        break
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

/// Which connections of a flapping link are refused or cut, and where: a pure function of a seed and the connection's
/// number (SplitMix64), so that a failing schedule replays from its seed.
struct FlappingSchedule: Sendable {
  enum Fate: Equatable, Sendable {
    case passed
    case refused
    case cutInRequest(afterBytes: Int)
    case cutInResponse(afterBytes: Int)
  }

  let seed: UInt64
  var cutsResponses = true

  func fate(of connection: Int) -> Fate {
    if connection % 3 == 2 { return .passed }
    var z = seed &+ UInt64(connection + 1) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    switch z % 3 {
    case 0: return .refused
    case 1: return .cutInRequest(afterBytes: 1 + Int((z >> 8) % 400))
    default: return cutsResponses ? .cutInResponse(afterBytes: Int((z >> 8) % 40)) : .passed
    }
  }
}

/// Finds the end of a message head (`CRLF CRLF`) in a stream read a buffer at a time.
struct HeadEnd {
  var seen: Bool
  private var tail: [UInt8] = []

  init(seen: Bool) { self.seen = seen }

  /// How many bytes of `bytes` come after the head's end (all of them once it was seen).
  mutating func bytesPastTheHead(in bytes: ArraySlice<UInt8>) -> Int {
    guard !seen else { return bytes.count }
    let terminator: [UInt8] = [13, 10, 13, 10]
    for (offset, byte) in bytes.enumerated() {
      tail.append(byte)
      if tail.count > 4 { tail.removeFirst() }
      if tail == terminator {
        seen = true
        return bytes.count - offset - 1
      }
    }
    return 0
  }
}
