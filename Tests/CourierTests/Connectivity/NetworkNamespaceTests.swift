#if os(Linux)
import Courier
import Foundation
import Testing
import CourierTestSupport

/// The monitor against real kernel interface state: a veth pair between the host and a network namespace the test
/// creates, brought down and up with iproute2. Needs root; skipped with the reason otherwise.
@Suite("Connectivity in a real network namespace")
struct NetworkNamespaceTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("the host end of a veth pair goes online and offline as the namespace's end goes up and down")
  func hostView() async throws {
    try await VethNamespace.with { namespace in
      try await namespace.setHostEnd(up: true)
      let monitor = NetworkMonitor.sysfs(pollInterval: 0.05) { $0 == namespace.hostEnd }
      let log = StreamLog(monitor.onlineChanges())
      #expect(try await log.waitUntil { $0 == [false] }, "host end up, peer down: lowerlayerdown")

      try await namespace.setPeerEnd(up: true)
      #expect(try await log.waitUntil { $0 == [false, true] })
      #expect(monitor.currentPath.interfaces == [NetworkInterface(name: namespace.hostEnd)])

      try await namespace.setPeerEnd(up: false)
      #expect(try await log.waitUntil { $0 == [false, true, false] })
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("inside the namespace, its only link going down and up is offline and online; loopback does not count")
  func namespaceView() async throws {
    try await VethNamespace.with { namespace in
      let monitor = NetworkMonitor.sysfs(root: try await namespace.namespaceSysfs(), pollInterval: 0.05)
      #expect(!monitor.isOnline)

      let log = StreamLog(monitor.paths())
      try await namespace.setPeerEnd(up: true)
      try await namespace.setHostEnd(up: true)
      #expect(try await log.waitUntil { $0.last?.isOnline == true })
      #expect(log.values.last?.interfaces.map(\.name) == [namespace.peerEnd])

      try await namespace.setHostEnd(up: false)
      #expect(try await log.waitUntil { $0.last?.isOnline == false }, "the far end going down takes the link down")
      #expect(log.values.map(\.isOnline) == [false, true, false])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a request waits while the namespace is offline and goes out once its link comes up")
  func interceptorWaits() async throws {
    try await VethNamespace.with { namespace in
      try await namespace.setHostEnd(up: true)
      let monitor = NetworkMonitor.sysfs(root: try await namespace.namespaceSysfs(), pollInterval: 0.05)
      // A wait that never ended would fail the call at its 30 s timeout; the checks below are far from it.
      let endpoint = Endpoint<ConnectivityHits>.get("/counted/netns").timeout(600)

      try await withDemoServer(.urlSession) { _, fixture in
        let failing = fixture.client { $0.interceptors = [ConnectivityInterceptor(monitor: monitor)] }
        let error = await #expect(throws: CourierError.self) { try await failing.send(endpoint) }
        #expect(error?.isNoConnection == true)

        let waiting = fixture.client {
          $0.interceptors = [ConnectivityInterceptor(monitor: monitor, waitsForConnectivity: true)]
        }
        let finished = Locked(false)
        let request = Task {
          defer { finished.withLock { $0 = true } }
          return try await waiting.value(endpoint)
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(!finished.withLock { $0 }, "the request did not wait for the link")
        try await namespace.setPeerEnd(up: true)
        // A wait that ended at the timeout instead would throw `noConnection` here.
        let value = try await request.value
        #expect(value.hits == 1, "only the waiting request reached the server")
      }
    }
  }
}
#endif
