import Courier
import CourierOutbox
import Foundation

/// Durable enqueues into a `CourierOutbox.Outbox` on a SQLite file (WAL): one transaction per item (`single`), or
/// 100 items per transaction (`batch`). The outbox is offline, so nothing is sent; the rate is of committed items.
enum OutboxScenario {
  enum Variant: String {
    case single, batch
  }

  struct Post: Codable, Sendable {
    var title: String
    var body: String
  }

  static func run(_ variant: Variant, count: Int, directory: String) async throws -> Measurement {
    let path = (directory as NSString).appendingPathComponent("outbox-\(UUID().uuidString).sqlite")
    defer {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    var configuration = Outbox.Configuration()
    configuration.monitor = .constant(.offline)
    configuration.maxQueuedBytes = .max
    let client = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!)
    let outbox = try Outbox(client: client, path: path, configuration: configuration)
    let endpoints = (0..<count).map {
      Endpoint<Data>.post("/posts", body: Post(title: "post \($0)", body: String(repeating: "x", count: 200)))
    }
    let start = ProcessInfo.processInfo.systemUptime
    switch variant {
    case .single:
      for endpoint in endpoints { try await outbox.enqueue(endpoint, lane: "lane-\(count % 8)") }
    case .batch:
      var index = 0
      while index < endpoints.count {
        let end = min(index + 100, endpoints.count)
        try await outbox.enqueue(contentsOf: Array(endpoints[index..<end]), lane: "batch")
        index = end
      }
    }
    let seconds = ProcessInfo.processInfo.systemUptime - start
    let waiting = try await outbox.pendingCount()
    guard waiting == count else { throw BenchmarkFailure("\(waiting) items waiting, expected \(count)") }
    return Measurement(value: Double(count) / seconds, unit: "items/s", operations: count, seconds: seconds)
  }
}
