import Courier
import CourierTestSupport
import Foundation
import Testing

@Suite("SysfsNetworkMonitor over a fake /sys/class/net")
struct SysfsNetworkMonitorTests {
  @Test("loopback alone is offline; a link that is up is online")
  func loopbackIsNotAConnection() throws {
    let sysfs = try FakeSysfs()
    try sysfs.addLoopback()
    try sysfs.link("eth0", up: false)
    let monitor = sysfs.monitor()
    #expect(monitor.currentPath == .offline)
    #expect(monitor.status == .offline)

    try sysfs.link("eth0", up: true)
    #expect(
      monitor.currentPath
        == NetworkPath(status: .online, interfaces: [NetworkInterface(name: "eth0", kind: .wiredEthernet)]))
  }

  @Test("loopback is recognised by type and flags, not only by the name lo")
  func loopbackByTypeAndFlags() throws {
    let sysfs = try FakeSysfs()
    try sysfs.set("lo0", operstate: "up", carrier: 1, type: 772, flags: 0x9, hardware: false)
    try sysfs.set("lo1", operstate: "up", carrier: 1, type: 1, flags: 0x9, hardware: false)
    #expect(sysfs.monitor().status == .offline)
  }

  @Test("operational states: unknown counts only with a carrier; dormant and lowerlayerdown do not count")
  func operationalStates() throws {
    let sysfs = try FakeSysfs()
    let monitor = sysfs.monitor()
    try sysfs.set("tun0", operstate: "unknown", carrier: nil, type: 65534, hardware: false)
    #expect(monitor.status == .offline)
    try sysfs.set("tun0", operstate: "unknown", carrier: 0, type: 65534, hardware: false)
    #expect(monitor.status == .offline)
    try sysfs.set("tun0", operstate: "unknown", carrier: 1, type: 65534, hardware: false)
    #expect(monitor.currentPath.interfaces == [NetworkInterface(name: "tun0", kind: .other)])
    try sysfs.remove("tun0")

    for state in ["dormant", "lowerlayerdown", "notpresent", "testing", "down"] {
      try sysfs.set("eth0", operstate: state, carrier: 1)
      #expect(monitor.status == .offline, "operstate \(state)")
    }
  }

  @Test("an interface without IFF_UP is down whatever operstate says")
  func administrativelyDown() throws {
    let sysfs = try FakeSysfs()
    try sysfs.set("eth0", operstate: "up", carrier: 1, flags: 0x1002)
    #expect(sysfs.monitor().status == .offline)
  }

  @Test("interface kinds: Wi-Fi, cellular, wired hardware, virtual links")
  func kinds() throws {
    let sysfs = try FakeSysfs()
    try sysfs.set("wlan0", operstate: "up", carrier: 1, wireless: true)
    try sysfs.set("wwan0", operstate: "up", carrier: 1, type: 519)
    try sysfs.set("enp3s0", operstate: "up", carrier: 1)
    try sysfs.set("veth9", operstate: "up", carrier: 1, hardware: false)
    let interfaces = sysfs.monitor().currentPath.interfaces
    #expect(
      interfaces == [
        NetworkInterface(name: "enp3s0", kind: .wiredEthernet), NetworkInterface(name: "veth9", kind: .other),
        NetworkInterface(name: "wlan0", kind: .wifi), NetworkInterface(name: "wwan0", kind: .cellular),
      ])
  }

  @Test("includes limits which interfaces count")
  func includes() throws {
    let sysfs = try FakeSysfs()
    try sysfs.link("docker0", up: true)
    try sysfs.link("wlan0", up: false)
    #expect(sysfs.monitor().status == .online)
    let physical = sysfs.monitor { !$0.hasPrefix("docker") }
    #expect(physical.status == .offline)
  }

  @Test("a tree that cannot be read reports online, so nothing is blocked")
  func unreadableRoot() {
    let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
    #expect(SysfsNetworkMonitor(root: missing).status == .online)
  }

  @Test("paths() gives the current path at once, then each change")
  func pathStream() async throws {
    let sysfs = try FakeSysfs()
    try sysfs.addLoopback()
    try sysfs.link("eth0", up: false)
    let log = StreamLog(sysfs.monitor().paths())
    #expect(try await log.waitUntil { $0 == [.offline] })

    try sysfs.link("eth0", up: true)
    #expect(try await log.waitUntil { $0.last?.status == .online })
    try sysfs.set("wlan0", operstate: "up", carrier: 1, wireless: true)
    #expect(try await log.waitUntil { $0.last?.interfaces.map(\.name) == ["eth0", "wlan0"] })
    try sysfs.link("wlan0", up: false)
    #expect(try await log.waitUntil { $0.last?.interfaces.map(\.name) == ["eth0"] })
    try sysfs.link("eth0", up: false)
    #expect(try await log.waitUntil { $0.last == .offline })
    #expect(log.values.map(\.status) == [.offline, .online, .online, .online, .offline])
  }

  @Test("statuses() reports only flips between online and offline")
  func statusStream() async throws {
    let sysfs = try FakeSysfs()
    try sysfs.link("eth0", up: true)
    let log = StreamLog(sysfs.monitor().statuses())
    #expect(try await log.waitUntil { $0 == [.online] })
    try sysfs.set("wlan0", operstate: "up", carrier: 1, wireless: true)
    try await pause(milliseconds: 100)
    #expect(log.values == [.online], "another interface coming up is not a change of status")
    try sysfs.link("eth0", up: false)
    try sysfs.link("wlan0", up: false)
    #expect(try await log.waitUntil { $0 == [.online, .offline] })
    try sysfs.link("eth0", up: true)
    #expect(try await log.waitUntil { $0 == [.online, .offline, .online] })
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
      try await pause(milliseconds: 200)
      try sysfs.link("eth0", up: true)
    }
    #expect(await monitor.waitUntilOnline(timeout: 60))
    #expect(stopwatch.elapsed < 20)
    try await flip.value

    stopwatch = Stopwatch()
    #expect(await monitor.waitUntilOnline(timeout: 60))
    #expect(stopwatch.elapsed < 20, "already online: no wait")
  }
}
