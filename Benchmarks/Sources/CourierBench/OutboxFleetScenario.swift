import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierOutbox
import CourierOutboxPostgres
import CourierTesting
import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL outbox (and the SQLite one beside it):
/// - `enqueue`: items enqueued one per transaction of the caller's (`enqueue(_:on:)` after a business row's insert),
///   one after another: what a service's write path pays;
/// - `enqueue-each`, `enqueue-batch`: 100 items a transaction of the caller's (after a business row's insert), one
///   enqueue each or one batch;
/// - `drain`: `count` items in `lanes` lanes delivered to nginx on loopback over AsyncHTTPClient by `workers` outboxes
///   (each an instance of a service, with its own pool), timed from their start until nothing waits;
/// - `claim`: the same drain through a transport that answers 201 at once in the process, so that what is timed is the
///   store's work per item — the claim, the record, the lease renewed and checked — without the network.
enum OutboxFleetScenario {
  enum Variant: String {
    case enqueue, drain, claim
    /// 100 items a transaction of the caller's, one `enqueue(_:on:)` each.
    case enqueueEach = "enqueue-each"
    /// 100 items a transaction of the caller's, in one `enqueue(contentsOf:on:)`.
    case enqueueBatch = "enqueue-batch"
  }

  enum Store: String {
    case postgres, sqlite
  }

  struct Post: Codable, Sendable {
    var title: String
    var body: String
  }

  static func run(
    _ variant: Variant, store: Store, postgres: URL?, baseURL: URL?, count: Int, workers: Int, lanes: Int,
    directory: String
  ) async throws -> Measurement {
    let httpClient = HTTPClient(
      eventLoopGroupProvider: .singleton,
      configuration: AsyncHTTPClientTransport.Configuration().httpClientConfiguration)
    defer { _ = Task { try? await httpClient.shutdown() } }
    let transport: any HTTPTransport =
      variant == .claim
      ? StubTransport(.post("/outbox/*").reply(.status(.created)))
      : AsyncHTTPClientTransport(client: httpClient, configuration: .init())
    let client = APIClient(baseURL: baseURL ?? URL(string: "http://127.0.0.1:9")!) { $0.transport = transport }
    let endpoints = (0..<count).map { index in
      Endpoint<Data>.post("/outbox/posts", body: Post(title: "post \(index)", body: String(repeating: "x", count: 200)))
    }
    var configuration = Outbox.Configuration()
    configuration.monitor = .constant(NetworkPath(isOnline: true))
    configuration.maxQueuedBytes = .max
    configuration.maxConcurrentLanes = 8
    configuration.observesAppLifecycle = false
    let table = "bench_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12))"
    let path = (directory as NSString).appendingPathComponent("fleet-\(table).sqlite")
    defer {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let database = try postgres.map(Self.configuration)
    let options = PostgresOutboxOptions(tableName: table, leaseDuration: .seconds(30))
    func open() async throws -> Outbox {
      switch store {
      case .postgres:
        guard let database else { throw BenchmarkFailure("--postgres URL is required") }
        return try await Outbox(client: client, postgres: database, options: options, configuration: configuration)
      case .sqlite:
        return try Outbox(client: client, path: path, configuration: configuration)
      }
    }

    let producer = try await open()
    let pool = database.map { PostgresClient(configuration: $0) }
    let running = pool.map { pool in Task { await pool.run() } }
    defer { running?.cancel() }
    let logger = Logger(label: "courier.bench")

    switch variant {
    case .enqueue:
      guard let pool else { throw BenchmarkFailure("enqueue within a transaction is measured on PostgreSQL") }
      try await pool.query("CREATE TABLE \(unescaped: table)_order (id BIGINT PRIMARY KEY)", logger: logger)
      let start = ContinuousClock.now
      for (index, endpoint) in endpoints.enumerated() {
        try await pool.withTransaction(logger: logger) { connection in
          try await connection.query("INSERT INTO \(unescaped: table)_order (id) VALUES (\(index))", logger: logger)
          try await producer.enqueue(endpoint, lane: "lane-\(index % lanes)", on: connection)
        }
      }
      let seconds = secondsSince(start)
      return Measurement(value: Double(count) / seconds, unit: "items/s", operations: count, seconds: seconds)
    case .enqueueEach, .enqueueBatch:
      guard let pool else { throw BenchmarkFailure("enqueue within a transaction is measured on PostgreSQL") }
      try await pool.query("CREATE TABLE \(unescaped: table)_order (id BIGINT PRIMARY KEY)", logger: logger)
      let batches = stride(from: 0, to: count, by: 100).map { Array(endpoints[$0..<min($0 + 100, count)]) }
      let start = ContinuousClock.now
      for (index, batch) in batches.enumerated() {
        try await pool.withTransaction(logger: logger) { connection in
          try await connection.query("INSERT INTO \(unescaped: table)_order (id) VALUES (\(index))", logger: logger)
          if variant == .enqueueBatch {
            try await producer.enqueue(contentsOf: batch, lane: "lane-\(index % lanes)", on: connection)
          } else {
            for endpoint in batch {
              try await producer.enqueue(endpoint, lane: "lane-\(index % lanes)", on: connection)
            }
          }
        }
      }
      let seconds = secondsSince(start)
      return Measurement(value: Double(count) / seconds, unit: "items/s", operations: count, seconds: seconds)
    case .drain, .claim:
      // Enqueued untimed, `lanes` at a time, before any worker starts.
      var index = 0
      while index < count {
        let end = min(index + 100 * lanes, count)
        for lane in 0..<lanes {
          let slice = stride(from: index + lane, to: end, by: lanes).map { endpoints[$0] }
          if slice.isEmpty { continue }
          if let pool {
            try await pool.withTransaction(logger: logger) { connection in
              for endpoint in slice { try await producer.enqueue(endpoint, lane: "lane-\(lane)", on: connection) }
            }
          } else {
            // The SQLite outbox starts sending on enqueue: its batch goes in offline first (see below).
            break
          }
        }
        index = end
      }
      if store == .sqlite {
        await producer.stop()
        var offline = configuration
        offline.monitor = .constant(.offline)
        let filling = try Outbox(client: client, path: path, configuration: offline)
        var position = 0
        while position < count {
          let end = min(position + 100 * lanes, count)
          for lane in 0..<lanes {
            let slice = stride(from: position + lane, to: end, by: lanes).map { endpoints[$0] }
            if !slice.isEmpty { try await filling.enqueue(contentsOf: slice, lane: "lane-\(lane)") }
          }
          position = end
        }
        await filling.stop()
      }
      var fleet: [Outbox] = []
      for _ in 0..<(store == .sqlite ? 1 : workers) { fleet.append(try await open()) }
      let start = ContinuousClock.now
      for worker in fleet { await worker.start() }
      try await fleet[0].waitUntilDrained()
      let seconds = secondsSince(start)
      for worker in fleet { await worker.stop() }
      let delivered = try await fleet[0].items(in: [.delivered]).count
      guard delivered == count else { throw BenchmarkFailure("\(delivered) delivered, expected \(count)") }
      return Measurement(value: Double(count) / seconds, unit: "items/s", operations: count, seconds: seconds)
    }
  }

  /// `postgres://user:password@host:port/database`.
  static func configuration(_ url: URL) throws -> PostgresClient.Configuration {
    guard let host = url.host else { throw BenchmarkFailure("\(url) names no host") }
    return PostgresClient.Configuration(
      host: host, port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
      database: url.path.count > 1 ? String(url.path.dropFirst()) : nil, tls: .disable)
  }
}
