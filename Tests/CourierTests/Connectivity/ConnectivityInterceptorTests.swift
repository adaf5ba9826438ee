import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

/// The clients' clock stands still unless a test moves it: a call that ends did not wait for a deadline, and one that
/// waits ends only when the test moves the clock past its deadline, however busy the machine is.
@Suite("ConnectivityInterceptor", .hangGuard)
struct ConnectivityInterceptorTests {
  private static let counted = Endpoint<ConnectivityHits>.get("/counted/connectivity")
  private static let hits = Endpoint<ConnectivityHits>.get("/counted/connectivity/hits")

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("online: requests pass through", arguments: TransportKind.allCases)
  func online(kind: TransportKind) async throws {
    let sysfs = try FakeSysfs()
    try sysfs.link("eth0", up: true)
    try await withDemoServer(kind, { $0.interceptors = [ConnectivityInterceptor(monitor: sysfs.monitor())] }) {
      client, _ in
      let value = try await client.value(Self.counted)
      #expect(value.hits == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "offline: a request fails at once with isNoConnection and never reaches the server",
    arguments: TransportKind.allCases)
  @available(macOS 14, iOS 17, tvOS 17, *)
  func failsFast(kind: TransportKind) async throws {
    try await Self.offline(kind, loopback: true, waitsForConnectivity: false) { client, fixture, link in
      // At once: neither the deadline's clock moved nor the link's states were waited for.
      let error = await #expect(throws: CourierError.self) { try await client.send(Self.counted.timeout(60)) }
      #expect(error?.isNoConnection == true)
      #expect(error?.request?.path == "/counted/connectivity")
      #expect(link.clock.elapsed == 0)
      #expect(link.waits == 0, "the call waited for the link")
      let hits = try await fixture.client().value(Self.hits)
      #expect(hits.hits == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "waitsForConnectivity: a request made offline is sent once the link comes up", arguments: TransportKind.allCases)
  @available(macOS 14, iOS 17, tvOS 17, *)
  func waitsThenSends(kind: TransportKind) async throws {
    try await Self.offline(kind, loopback: false, waitsForConnectivity: true) { client, fixture, link in
      let request = Task { try await client.value(Self.counted.timeout(60)) }
      // A call waiting for the link has asked the monitor for its states.
      try await waitUntil("the call waits for the link") { link.waits == 1 }
      let early = try await fixture.client().value(Self.hits)
      #expect(early.hits == 0, "nothing is sent while offline")
      try link.sysfs.link("eth0", up: true)
      let value = try await request.value
      #expect(value.hits == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "waitsForConnectivity: still offline after the request's timeout fails with isNoConnection",
    arguments: TransportKind.allCases)
  @available(macOS 14, iOS 17, tvOS 17, *)
  func waitTimesOut(kind: TransportKind) async throws {
    try await Self.offline(kind, loopback: false, waitsForConnectivity: true) { client, fixture, link in
      let request = Task { try await client.send(Self.counted.timeout(0.5)) }
      try await waitUntil("the call waits for the link") { link.waits == 1 }
      link.clock.advance(by: 0.5)
      let error = await #expect(throws: CourierError.self) { try await request.value }
      #expect(error?.isNoConnection == true, "\(String(describing: error))")
      let hits = try await fixture.client().value(Self.hits)
      #expect(hits.hits == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("waitsForConnectivity: cancelling the caller ends the wait at once", arguments: [TransportKind.urlSession])
  func cancelWhileWaiting(kind: TransportKind) async throws {
    try await Self.offline(kind, loopback: false, waitsForConnectivity: true) { client, fixture, link in
      let request = Task { try await client.send(Self.counted.timeout(30)) }
      try await waitUntil("the call waits for the link") { link.waits == 1 }
      // The clock never moves and the link stays down: only the cancellation can end the call.
      request.cancel()
      let error = await #expect(throws: CourierError.self) { try await request.value }
      #expect(error?.isCancellation == true)
    }
  }
}

extension ConnectivityInterceptorTests {
  /// An offline link: eth0 down (beside a loopback interface, with `loopback`), a monitor that counts the waits asked
  /// of it, and a clock that stands still unless the test moves it.
  struct OfflineLink: Sendable {
    let sysfs: FakeSysfs
    let clock: TestCallClock
    let counted: Locked<Int>

    /// How many times a call asked the monitor for the link's states: a call that waits for the link asks once.
    var waits: Int { counted.withLock { $0 } }
  }

  /// Runs `body` against the demo server over `kind`, with a `ConnectivityInterceptor` on an offline link.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func offline(
    _ kind: TransportKind, loopback: Bool, waitsForConnectivity: Bool,
    _ body: (APIClient, DemoServerFixture, OfflineLink) async throws -> Void
  ) async throws {
    let sysfs = try FakeSysfs()
    if loopback { try sysfs.addLoopback() }
    try sysfs.link("eth0", up: false)
    let base = sysfs.monitor()
    let counted = Locked(0)
    let monitor = NetworkMonitor(
      currentPath: { base.currentPath },
      paths: {
        counted.withLock { $0 += 1 }
        return base.paths()
      })
    let link = OfflineLink(sysfs: sysfs, clock: TestCallClock(advancesOnSleep: false), counted: counted)
    let interceptor = ConnectivityInterceptor(monitor: monitor, waitsForConnectivity: waitsForConnectivity)
    try await withDemoServer(
      kind,
      {
        $0.interceptors = [interceptor]
        $0.clock = link.clock
      }
    ) { client, fixture in try await body(client, fixture, link) }
  }
}

/// What `/counted/{key}` reports.
struct ConnectivityHits: Decodable, Sendable {
  var key: String
  var hits: Int
}
