import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierDemoServer
import CourierOutbox
import CourierOutboxPostgres
import Foundation
import Logging
import PostgresNIO

extension CourierDemo {
  /// The outbox for server fleets against a PostgreSQL server of yours: a producer enqueues posts within its
  /// transactions, several workers (each an instance of a service, with its own pool) deliver them to an in-process
  /// demo server, and the server's own counts show each applied once and in order within its lane.
  struct Fleet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run the PostgreSQL outbox's fleet against your PostgreSQL server (the tour keeps SQLite).")

    @Option(help: "The database, as postgres://user:password@host:port/database.")
    var postgres: String = "postgres://postgres@127.0.0.1:5432/postgres"

    @Option(help: "The schema the outbox's tables go in (it must exist).")
    var schema: String = "public"

    @Option(help: "How many workers deliver.") var workers: Int = 3
    @Option(help: "How many lanes.") var lanes: Int = 10
    @Option(help: "How many posts in each lane.") var perLane: Int = 30

    /// A post the fleet delivers.
    struct FleetPost: Codable, Sendable {
      var title: String
      var body: String = "fleet"
    }

    func run() async throws {
      guard #available(macOS 14, iOS 17, tvOS 17, *) else { throw DemoServerUnavailable() }
      guard let url = URL(string: postgres), url.scheme?.hasPrefix("postgres") == true, let host = url.host else {
        throw ValidationError("\(postgres) is not a postgres://user:password@host:port/database URL")
      }
      let database = PostgresClient.Configuration(
        host: host, port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
        database: url.path.count > 1 ? String(url.path.dropFirst()) : nil, tls: .disable)
      let table = "courier_demo_fleet_\(Int(Date().timeIntervalSince1970))"
      let options = PostgresOutboxOptions(schema: schema, tableName: table, leaseDuration: .seconds(5))
      var configuration = Outbox.Configuration()
      configuration.monitor = .constant(NetworkPath(isOnline: true))
      configuration.observesAppLifecycle = false
      configuration.baseDelay = 0.05

      let server = try await DemoServer().start(host: "127.0.0.1", port: 0)
      defer { Task { await server.stop() } }
      let api = APIClient(baseURL: server.baseURL) { $0.transport = AsyncHTTPClientTransport() }
      print("Demo API on \(server.baseURL.absoluteString); outbox tables \(schema).\(table)_* at \(host)")

      // The producer: the service's own pool, writing each round of posts in one transaction.
      let producer = try await Outbox(client: api, postgres: database, options: options, configuration: configuration)
      let pool = PostgresClient(configuration: database)
      let running = Task { await pool.run() }
      defer { running.cancel() }
      let logger = Logger(label: "courier.demo.fleet")
      let start = ContinuousClock.now
      for n in 0..<perLane {
        try await pool.withTransaction(logger: logger) { connection in
          for lane in 0..<lanes {
            try await producer.enqueue(
              Endpoint<Data>.post("/posts", body: FleetPost(title: "\(table)-\(lane)-\(n)")), lane: "lane-\(lane)",
              on: connection)
          }
        }
      }
      print("Enqueued \(lanes * perLane) posts in \(lanes) lanes, \(perLane) transactions")

      // The workers: instances of the service, each with its own pool, sharing the items.
      var fleet: [Outbox] = []
      for _ in 0..<workers {
        let worker = try await Outbox(client: api, postgres: database, options: options, configuration: configuration)
        await worker.start()
        fleet.append(worker)
      }
      try await fleet[0].waitUntilDrained()
      for worker in fleet { await worker.stop() }
      let seconds =
        Double((ContinuousClock.now - start).components.attoseconds) / 1e18
        + Double((ContinuousClock.now - start).components.seconds)

      let titles = try await APIClient(baseURL: server.baseURL).value(Endpoint<[FleetPost]>.get("/posts")).map(\.title)
      var applied: [String: Int] = [:]
      var order: [Int: [Int]] = [:]
      for title in titles where title.hasPrefix(table) {
        applied[title, default: 0] += 1
        let parts = title.split(separator: "-")
        if let lane = Int(parts[1]), let n = Int(parts[2]) { order[lane, default: []].append(n) }
      }
      let twice = applied.values.filter { $0 > 1 }.count
      let disordered = order.values.filter { $0 != $0.sorted() }.count
      print(
        "\(workers) workers delivered in \(String(format: "%.1f", seconds)) s: \(applied.count) applied by the "
          + "server, \(twice) applied twice, \(disordered) lanes out of order")
      guard applied.count == lanes * perLane, twice == 0, disordered == 0 else { throw ExitCode.failure }
    }
  }
}
