import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#endif

/// How late a 1 s deadline ends a call to a server that never answers, while `busy` CPU-bound tasks keep Swift's shared
/// pool busy (each works in 10 ms slices and yields between them, as an app's decoding or image work would).
///
/// `clock` chooses where the deadline's timer waits: `system` is Courier's (a Dispatch timer source of its own),
/// `task` a clock that keeps only `now` and `sleep`, whose timer is a task on the shared pool — how every deadline was
/// kept before. Prints the median and the longest lateness over `rounds` calls.
enum DeadlineScenario {
  enum Transport: String {
    case urlsession, ahc
  }

  enum Clock: String {
    case system, task
  }

  /// A clock whose timer is `CallClock`'s default: a task on the shared pool that sleeps until the deadline.
  struct TaskTimerClock: CallClock {
    var now: Date { Date() }
    var uptime: TimeInterval { ProcessInfo.processInfo.systemUptime }
    func sleep(seconds: TimeInterval) async throws {
      try await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
    }
  }

  static func run(transport kind: Transport, clock: Clock, busy: Int, rounds: Int) async throws -> Measurement {
    let port = try silentListener()
    let baseURL = URL(string: "http://127.0.0.1:\(port)")!
    let httpClient: HTTPClient?
    var configuration = APIClient.Configuration(baseURL: baseURL)
    switch kind {
    case .urlsession:
      httpClient = nil
      configuration.transport = URLSessionTransport()
    case .ahc:
      let transportConfiguration = AsyncHTTPClientTransport.Configuration()
      let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: transportConfiguration.httpClientConfiguration)
      httpClient = client
      configuration.transport = AsyncHTTPClientTransport(client: client, configuration: transportConfiguration)
    }
    if clock == .task { configuration.clock = TaskTimerClock() }
    let client = APIClient(configuration: configuration)

    let running = NIOLockedValueBox(true)
    let workers = (0..<busy).map { _ in
      Task.detached {
        var sink: UInt64 = 0
        while running.withLockedValue({ $0 }) {
          sink &+= spin(milliseconds: 10)
          await Task.yield()
        }
        return sink
      }
    }
    var lateness: [Double] = []
    for _ in 0..<rounds {
      let start = ProcessInfo.processInfo.systemUptime
      do {
        _ = try await client.send(Endpoint<Data>.get("/never").timeout(1))
        throw BenchmarkFailure("the silent server answered")
      } catch let error as CourierError where error.kind == .timeout {
        lateness.append(ProcessInfo.processInfo.systemUptime - start - 1)
      }
    }
    running.withLockedValue { $0 = false }
    for worker in workers { _ = await worker.value }
    try await httpClient?.shutdown()
    lateness.sort()
    let median = lateness[lateness.count / 2]
    print(String(format: "LATENESS median_ms=%.1f max_ms=%.1f", median * 1000, (lateness.last ?? 0) * 1000))
    return Measurement(value: median * 1000, unit: "ms", operations: rounds, seconds: lateness.reduce(0, +) + 1)
  }

  /// Works for about `milliseconds` without suspending.
  static func spin(milliseconds: Double) -> UInt64 {
    let end = ProcessInfo.processInfo.systemUptime + milliseconds / 1000
    var value: UInt64 = 1
    while ProcessInfo.processInfo.systemUptime < end {
      for _ in 0..<1000 { value = value &* 6_364_136_223_846_793_005 &+ 1 }
    }
    return value
  }

  /// A socket listening on 127.0.0.1 that never accepts: the kernel completes each connection and takes the
  /// request, and no answer ever comes.
  static func silentListener() throws -> Int {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw BenchmarkFailure("socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0, listen(descriptor, 128) == 0 else { throw BenchmarkFailure("bind or listen failed") }
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else { throw BenchmarkFailure("getsockname failed") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
