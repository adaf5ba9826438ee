import CourierTestSupport
import CourierTesting
import Foundation
import Testing

@testable import Courier

/// How the system's path status becomes Courier's connectivity, and what ``NetworkMonitor/system`` reads on each
/// platform (watchOS included), checked as plain values.
@Suite(.hangGuard) struct PathStatusTests {
  @Test(arguments: [
    (PathStatus.satisfied, true), (.requiresConnection, true), (.unknown, true), (.unsatisfied, false),
  ])
  func onlyAnUnsatisfiedPathIsOffline(status: PathStatus, online: Bool) {
    #expect(status.mayConnect == online)
    let path = NetworkPath(status: status, interfaces: [.cellular("pdp_ip0")], isExpensive: true)
    #expect(path.isOnline == online)
    #expect(path.interfaces == [.cellular("pdp_ip0")])
    #expect(path.isExpensive)
  }

  @Test func watchOSReadsNoPathLinuxReadsSysfsTheOtherApplePlatformsNWPathMonitor() {
    #expect(SystemNetworkSource.choose(hasNetworkFramework: true, isWatchOS: true) == .unknown)
    #expect(SystemNetworkSource.choose(hasNetworkFramework: true, isWatchOS: false) == .pathMonitor)
    #expect(SystemNetworkSource.choose(hasNetworkFramework: false, isWatchOS: false) == .sysfs)
    #if os(Linux)
    #expect(SystemNetworkSource.current == .sysfs)
    #endif
  }

  @Test func aMonitorThatCannotTellIsNeverOffline() async {
    let monitor = NetworkMonitor.system(reading: .unknown)
    #expect(monitor.isOnline)
    #expect(await monitor.waitUntilOnline(timeout: 0.01))
    var changes: [Bool] = []
    for await isOnline in monitor.onlineChanges() {
      changes.append(isOnline)
      break
    }
    #expect(changes == [true])
  }

  @Test func callsThroughAMonitorThatCannotTellFailWithTheTransportsOwnError() async throws {
    let transport = StubTransport(.get("/x").reply(.noConnection), .get("/y").reply(.body("ok")))
    let client = APIClient.testing(transport: transport) {
      $0.interceptors = [ConnectivityInterceptor(monitor: .system(reading: .unknown))]
    }
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Data>.get("/x")) }
    #expect(error?.isNoConnection == true)
    #expect(error?.description.contains("no network interface is up") == false, "not the interceptor's verdict")
    #expect(transport.requests.map(\.path) == ["/x"], "the call was attempted")
    #expect(try await client.send(Endpoint<Data>.get("/y")).status == .ok)
  }

  @Test func aPathThatNeedsAConnectionLetsTheCallThrough() async throws {
    let transport = StubTransport(.get("/x").reply(.body("ok")))
    let monitor = NetworkMonitor.constant(NetworkPath(status: .requiresConnection))
    let client = APIClient.testing(transport: transport) {
      $0.interceptors = [ConnectivityInterceptor(monitor: monitor)]
    }
    #expect(try await client.send(Endpoint<Data>.get("/x")).status == .ok)
    let offline = APIClient.testing(transport: transport) {
      $0.interceptors = [ConnectivityInterceptor(monitor: .constant(NetworkPath(status: .unsatisfied)))]
    }
    let error = await #expect(throws: CourierError.self) { try await offline.send(Endpoint<Data>.get("/x")) }
    #expect(error?.isNoConnection == true)
    #expect(transport.requests.count == 1, "the offline call was not sent")
  }
}
