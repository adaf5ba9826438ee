import Courier
import CourierTestSupport
import Foundation
import Testing

@Suite("NetworkMonitor made by hand, NetworkPath and NetworkInterface")
struct NetworkMonitorTests {
  @Test("constant(_:) always reports its path; waiting on a constant offline monitor runs out its timeout")
  func constant() async throws {
    let offline = NetworkMonitor.constant(.offline)
    #expect(offline.currentPath == .offline)
    #expect(!offline.isOnline)
    let log = StreamLog(offline.onlineChanges())
    #expect(try await log.waitUntil { $0 == [false] })
    let stopwatch = Stopwatch()
    #expect(await offline.waitUntilOnline(timeout: 0.3) == false)
    #expect(stopwatch.elapsed >= 0.25)

    let online = NetworkMonitor.constant(NetworkPath(isOnline: true, interfaces: [.wifi("en0")]))
    #expect(online.isOnline)
    #expect(await online.waitUntilOnline(timeout: 60))
  }

  @Test("init(currentPath:paths:): the monitor reads its closures, and waitUntilOnline follows the stream")
  func custom() async throws {
    let current = Locked(NetworkPath.offline)
    let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self)
    let monitor = NetworkMonitor(currentPath: { current.withLock { $0 } }, paths: { stream })
    continuation.yield(.offline)
    let online = NetworkPath(isOnline: true, interfaces: [.cellular("pdp_ip0")], isExpensive: true)
    let flip = Task {
      try await Task.sleep(for: .milliseconds(100))
      current.withLock { $0 = online }
      continuation.yield(online)
    }
    #expect(await monitor.waitUntilOnline(timeout: 60))
    try await flip.value
    #expect(monitor.currentPath == online)
    #expect(monitor.isOnline)
  }

  @Test("descriptions name the state and each interface's kind")
  func descriptions() {
    let path = NetworkPath(isOnline: true, interfaces: [.wiredEthernet("eth0"), NetworkInterface(name: "tun0")])
    #expect(path.description == "online via eth0 (wiredEthernet), tun0 (other)")
    #expect(NetworkPath(isOnline: true).description == "online")
    #expect(NetworkPath.offline.description == "offline")
    let loopback = NetworkInterface.loopback("lo")
    #expect(loopback.isLoopback)
    #expect(!loopback.isWiFi && !loopback.isCellular && !loopback.isWiredEthernet)
    #expect(loopback.description == "lo (loopback)")
  }
}
