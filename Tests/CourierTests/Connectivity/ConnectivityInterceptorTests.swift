import Courier
import CourierTestSupport
import Foundation
import Testing

@Suite("ConnectivityInterceptor")
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
    let sysfs = try FakeSysfs()
    try sysfs.addLoopback()
    try sysfs.link("eth0", up: false)
    let interceptor = ConnectivityInterceptor(monitor: sysfs.monitor())
    try await withDemoServer(kind, { $0.interceptors = [interceptor] }) { client, fixture in
      let stopwatch = Stopwatch()
      let error = await #expect(throws: CourierError.self) { try await client.send(Self.counted.timeout(60)) }
      #expect(error?.isNoConnection == true)
      #expect(error?.request?.path == "/counted/connectivity")
      #expect(stopwatch.elapsed < 20)
      let hits = try await fixture.client().value(Self.hits)
      #expect(hits.hits == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "waitsForConnectivity: a request made offline is sent once the link comes up", arguments: TransportKind.allCases)
  @available(macOS 14, iOS 17, tvOS 17, *)
  func waitsThenSends(kind: TransportKind) async throws {
    let sysfs = try FakeSysfs()
    try sysfs.link("eth0", up: false)
    let interceptor = ConnectivityInterceptor(monitor: sysfs.monitor(), waitsForConnectivity: true)
    try await withDemoServer(kind, { $0.interceptors = [interceptor] }) { client, fixture in
      let stopwatch = Stopwatch()
      let request = Task { try await client.value(Self.counted.timeout(60)) }
      try await pause(milliseconds: 300)
      let early = try await fixture.client().value(Self.hits)
      #expect(early.hits == 0, "nothing is sent while offline")
      try sysfs.link("eth0", up: true)
      let value = try await request.value
      #expect(value.hits == 1)
      #expect(stopwatch.elapsed >= 0.3)
      #expect(stopwatch.elapsed < 20)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "waitsForConnectivity: still offline after the request's timeout fails with isNoConnection",
    arguments: TransportKind.allCases)
  @available(macOS 14, iOS 17, tvOS 17, *)
  func waitTimesOut(kind: TransportKind) async throws {
    let sysfs = try FakeSysfs()
    try sysfs.link("eth0", up: false)
    let interceptor = ConnectivityInterceptor(monitor: sysfs.monitor(), waitsForConnectivity: true)
    try await withDemoServer(kind, { $0.interceptors = [interceptor] }) { client, fixture in
      let stopwatch = Stopwatch()
      let error = await #expect(throws: CourierError.self) { try await client.send(Self.counted.timeout(0.5)) }
      #expect(error?.isNoConnection == true, "\(String(describing: error))")
      #expect(stopwatch.elapsed >= 0.45)
      #expect(stopwatch.elapsed < 20)
      let hits = try await fixture.client().value(Self.hits)
      #expect(hits.hits == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("waitsForConnectivity: cancelling the caller ends the wait at once", arguments: [TransportKind.urlSession])
  func cancelWhileWaiting(kind: TransportKind) async throws {
    let sysfs = try FakeSysfs()
    try sysfs.link("eth0", up: false)
    let interceptor = ConnectivityInterceptor(monitor: sysfs.monitor(), waitsForConnectivity: true)
    try await withDemoServer(kind, { $0.interceptors = [interceptor] }) { client, _ in
      let request = Task { try await client.send(Self.counted.timeout(30)) }
      try await pause(milliseconds: 150)
      let stopwatch = Stopwatch()
      request.cancel()
      let error = await #expect(throws: CourierError.self) { try await request.value }
      #expect(error?.isCancellation == true)
      #expect(stopwatch.elapsed < 20)
    }
  }
}

/// What `/counted/{key}` reports.
struct ConnectivityHits: Decodable, Sendable {
  var key: String
  var hits: Int
}
