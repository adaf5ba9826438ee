import Courier
import CourierTestSupport
import Foundation
import Testing

@Suite("NetworkMonitor.sysfs over a fake /sys/class/net")
struct SysfsNetworkMonitorTests {
  @Test("loopback alone is offline; a link that is up is online")
  func loopbackIsNotAConnection() throws {
    let sysfs = try FakeSysfs()
    try sysfs.addLoopback()
    try sysfs.link("eth0", up: false)
    let monitor = sysfs.monitor()
    #expect(monitor.currentPath == .offline)
    #expect(!monitor.isOnline)

    try sysfs.link("eth0", up: true)
    #expect(monitor.currentPath == NetworkPath(isOnline: true, interfaces: [.wiredEthernet("eth0")]))
    #expect(monitor.isOnline)
  }

  @Test("loopback is recognised by type and flags, not only by the name lo")
  func loopbackByTypeAndFlags() throws {
    let sysfs = try FakeSysfs()
    try sysfs.set("lo0", operstate: "up", carrier: 1, type: 772, flags: 0x9, hardware: false)
    try sysfs.set("lo1", operstate: "up", carrier: 1, type: 1, flags: 0x9, hardware: false)
    #expect(!sysfs.monitor().isOnline)
  }

  @Test("operational states: unknown counts only with a carrier; dormant and lowerlayerdown do not count")
  func operationalStates() throws {
    let sysfs = try FakeSysfs()
    let monitor = sysfs.monitor()
    try sysfs.set("tun0", operstate: "unknown", carrier: nil, type: 65534, hardware: false)
    #expect(!monitor.isOnline)
    try sysfs.set("tun0", operstate: "unknown", carrier: 0, type: 65534, hardware: false)
    #expect(!monitor.isOnline)
    try sysfs.set("tun0", operstate: "unknown", carrier: 1, type: 65534, hardware: false)
    #expect(monitor.currentPath.interfaces == [NetworkInterface(name: "tun0")])
    try sysfs.remove("tun0")

    for state in ["dormant", "lowerlayerdown", "notpresent", "testing", "down"] {
      try sysfs.set("eth0", operstate: state, carrier: 1)
      #expect(!monitor.isOnline, "operstate \(state)")
    }
  }

  @Test("an interface without IFF_UP is down whatever operstate says")
  func administrativelyDown() throws {
    let sysfs = try FakeSysfs()
    try sysfs.set("eth0", operstate: "up", carrier: 1, flags: 0x1002)
    #expect(!sysfs.monitor().isOnline)
  }

  @Test("interface kinds: Wi-Fi, cellular, wired hardware, virtual links")
  func kinds() throws {
    let sysfs = try FakeSysfs()
    try sysfs.set("wlan0", operstate: "up", carrier: 1, wireless: true)
    try sysfs.set("wwan0", operstate: "up", carrier: 1, type: 519)
    try sysfs.set("enp3s0", operstate: "up", carrier: 1)
    try sysfs.set("veth9", operstate: "up", carrier: 1, hardware: false)
    let interfaces = sysfs.monitor().currentPath.interfaces
    let expected: [NetworkInterface] = [
      .wiredEthernet("enp3s0"), NetworkInterface(name: "veth9"), .wifi("wlan0"), .cellular("wwan0"),
    ]
    #expect(interfaces == expected)
    #expect(interfaces.map(\.isWiredEthernet) == [true, false, false, false])
    #expect(interfaces.map(\.isWiFi) == [false, false, true, false])
    #expect(interfaces.map(\.isCellular) == [false, false, false, true])
    #expect(interfaces.allSatisfy { !$0.isLoopback })
    #expect(
      interfaces.map(\.description) == ["enp3s0 (wiredEthernet)", "veth9 (other)", "wlan0 (wifi)", "wwan0 (cellular)"]
    )
  }

  @Test("includes limits which interfaces count")
  func includes() throws {
    let sysfs = try FakeSysfs()
    try sysfs.link("docker0", up: true)
    try sysfs.link("wlan0", up: false)
    #expect(sysfs.monitor().isOnline)
    let physical = sysfs.monitor { !$0.hasPrefix("docker") }
    #expect(!physical.isOnline)
  }

  @Test("a tree that cannot be read reports online, so nothing is blocked")
  func unreadableRoot() {
    let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
    #expect(NetworkMonitor.sysfs(root: missing).isOnline)
  }

  @Test("paths() gives the current path at once, then each change")
  func pathStream() async throws {
    let sysfs = try FakeSysfs()
    try sysfs.addLoopback()
    try sysfs.link("eth0", up: false)
    let log = StreamLog(sysfs.monitor().paths())
    #expect(try await log.waitUntil { $0 == [.offline] })

    try sysfs.link("eth0", up: true)
    #expect(try await log.waitUntil { $0.last?.isOnline == true })
    try sysfs.set("wlan0", operstate: "up", carrier: 1, wireless: true)
    #expect(try await log.waitUntil { $0.last?.interfaces.map(\.name) == ["eth0", "wlan0"] })
    try sysfs.link("wlan0", up: false)
    #expect(try await log.waitUntil { $0.last?.interfaces.map(\.name) == ["eth0"] })
    try sysfs.link("eth0", up: false)
    #expect(try await log.waitUntil { $0.last == .offline })
    #expect(log.values.map(\.isOnline) == [false, true, true, true, false])
  }

  @Test("onlineChanges() reports only flips between online and offline")
  func onlineChanges() async throws {
    let sysfs = try FakeSysfs()
    try sysfs.link("eth0", up: true)
    let log = StreamLog(sysfs.monitor().onlineChanges())
    #expect(try await log.waitUntil { $0 == [true] })
    try sysfs.set("wlan0", operstate: "up", carrier: 1, wireless: true)
    try await Task.sleep(for: .milliseconds(100))
    #expect(log.values == [true], "another interface coming up is not a change")
    try sysfs.link("eth0", up: false)
    try sysfs.link("wlan0", up: false)
    #expect(try await log.waitUntil { $0 == [true, false] })
    try sysfs.link("eth0", up: true)
    #expect(try await log.waitUntil { $0 == [true, false, true] })
  }

  @Test("waitUntilOnline returns true when the link comes up, false when the timeout passes first")
  func waitUntilOnline() async throws {
    let sysfs = try FakeSysfs()
    try sysfs.link("eth0", up: false)
    let monitor = sysfs.monitor()

    var stopwatch = Stopwatch()
    #expect(await monitor.waitUntilOnline(timeout: 0.3) == false)
    #expect(stopwatch.elapsed >= 0.25)

    stopwatch = Stopwatch()
    let flip = Task {
      try await Task.sleep(for: .milliseconds(200))
      try sysfs.link("eth0", up: true)
    }
    #expect(await monitor.waitUntilOnline(timeout: 60))
    try await flip.value

    stopwatch = Stopwatch()
    #expect(await monitor.waitUntilOnline(timeout: 60))
  }
}
