import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierOutbox
import Foundation

/// Writes delivered to nginx on loopback over AsyncHTTPClient, at the same concurrency: `direct` sends each POST with
/// `client.send` from `concurrency` tasks; `drain` enqueues the same POSTs into an outbox offline (not timed), then
/// opens it again online with `concurrency` lanes and times the drain until nothing waits — the store's work per item
/// (marking it sending, reading its request, recording the answer) is what the ratio measures. Both send the same
/// request: a 240-byte JSON body and an `Idempotency-Key`.
enum OutboxDrainScenario {
  enum Variant: String {
    case direct, drain
  }

  struct Post: Codable, Sendable {
    var title: String
    var body: String
  }

  static func run(
    _ variant: Variant, baseURL: URL, count: Int, concurrency: Int, directory: String
  ) async throws -> Measurement {
    let httpClient = HTTPClient(
      eventLoopGroupProvider: .singleton,
      configuration: AsyncHTTPClientTransport.Configuration().httpClientConfiguration)
    do {
      let measurement = try await run(variant, httpClient, baseURL, count, concurrency, directory)
      try await httpClient.shutdown()
      return measurement
    } catch {
      try? await httpClient.shutdown()
      throw error
    }
  }

  private static func run(
    _ variant: Variant, _ httpClient: HTTPClient, _ baseURL: URL, _ count: Int, _ concurrency: Int,
    _ directory: String
  ) async throws -> Measurement {
    let client = APIClient(baseURL: baseURL) {
      $0.transport = AsyncHTTPClientTransport(client: httpClient, configuration: .init())
    }
    let endpoints = (0..<count).map { index in
      Endpoint<Data>.post("/outbox/posts", body: Post(title: "post \(index)", body: String(repeating: "x", count: 200)))
    }
    switch variant {
    case .direct:
      let cpu = ProcessCPU.seconds()
      let start = ContinuousClock.now
      try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<concurrency {
          group.addTask {
            for index in stride(from: worker, to: count, by: concurrency) {
              let endpoint = endpoints[index].header("Idempotency-Key", "\"\(UUID().uuidString.lowercased())\"")
              let response = try await client.send(endpoint)
              guard response.status.code == 201 else { throw BenchmarkFailure("status \(response.status)") }
            }
          }
        }
        try await group.waitForAll()
      }
      let seconds = secondsSince(start)
      return Measurement(
        value: Double(count) / seconds, unit: "items/s", operations: count, seconds: seconds,
        extra: [("cpu_us_per_item", cpuPerItem(since: cpu, count))])
    case .drain:
      let path = (directory as NSString).appendingPathComponent("drain-\(UUID().uuidString).sqlite")
      defer {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
      }
      var configuration = Outbox.Configuration()
      configuration.monitor = .constant(.offline)
      configuration.maxQueuedBytes = .max
      configuration.maxConcurrentLanes = concurrency
      configuration.observesAppLifecycle = false
      do {
        let offline = try Outbox(client: client, path: path, configuration: configuration)
        var index = 0
        while index < count {
          let end = min(index + 100, count)
          for lane in 0..<concurrency {
            let slice = stride(from: index + lane, to: end, by: concurrency).map { endpoints[$0] }
            if !slice.isEmpty { try await offline.enqueue(contentsOf: slice, lane: "lane-\(lane)") }
          }
          index = end
        }
        await offline.stop()
      }
      configuration.monitor = .constant(NetworkPath(isOnline: true))
      let outbox = try Outbox(client: client, path: path, configuration: configuration)
      let cpu = ProcessCPU.seconds()
      let start = ContinuousClock.now
      await outbox.start()
      try await outbox.waitUntilDrained()
      let seconds = secondsSince(start)
      let cpuPerItem = cpuPerItem(since: cpu, count)
      let delivered = try await outbox.items(in: [.delivered]).count
      guard delivered == count else { throw BenchmarkFailure("\(delivered) delivered, expected \(count)") }
      await outbox.stop()
      return Measurement(
        value: Double(count) / seconds, unit: "items/s", operations: count, seconds: seconds,
        extra: [("cpu_us_per_item", cpuPerItem)])
    }
  }

  /// The process's CPU time since `start`, in microseconds per item: the client's own work, beside nginx's.
  private static func cpuPerItem(since start: Double, _ count: Int) -> String {
    String(format: "%.1f", (ProcessCPU.seconds() - start) / Double(count) * 1e6)
  }
}
