import Courier
import CourierOutbox
import CourierTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import CourierOutboxPostgres

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Worker processes sharing one PostgreSQL outbox deliver to the demo server (which honours `Idempotency-Key`): every
/// item applied once and in order within its lane — with four workers, with one killed by SIGKILL mid-drain, and with
/// PostgreSQL restarted under them. `swift test` runs them at small sizes; the soak script (`COURIER_SOAK=1`) at
/// 10,000 items in 100 lanes and 3,000 in 30.
@Suite(.serialized, .timeLimit(.minutes(15))) struct PostgresFleetTests {
  /// The worker executable built next to the test bundle.
  static var worker: URL? {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
    ]
    return candidates.map { $0.appendingPathComponent("CourierOutboxPostgresWorker") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func fourWorkerProcessesApplyTenThousandItemsInAHundredLanesOnceAndInOrder() async throws {
    try await withFleet(table: "fleet", lanes: Soak.size(12, soak: 100), perLane: Soak.size(10, soak: 100)) { fleet in
      // Leases that outlive the test: none ends because a busy machine kept its worker from renewing it, so a lane
      // claimed twice can only be a lease not kept.
      let workers = try (0..<4).map { _ in try fleet.startWorker(lease: 600) }
      for worker in workers { try await fleet.expectDrained(worker) }
      try await fleet.expectEveryItemAppliedOnceInOrder()
      // Nothing failed here, so no lane was ever held by two workers at once: each item was sent once.
      let resent = try await fleet.itemsSentMoreThanOnce()
      #expect(resent.isEmpty, "items sent more than once without a failure: \(resent.prefix(20))")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aWorkerKilledMidDrainLeavesItsLanesToTheOthersAfterItsLease() async throws {
    try await withFleet(table: "killed", lanes: Soak.size(12, soak: 30), perLane: Soak.size(10, soak: 100)) { fleet in
      // The first worker kills itself at its 20th delivery, mid-drain, its lanes held; the others start once it is
      // dead, so every lane it held waits for its lease to end.
      let doomed = try fleet.startWorker(lease: 1, killAfter: 20)
      #expect(await doomed.process.wait() == .signalled(SIGKILL), "the first worker died by SIGKILL mid-drain")
      let workers = try (0..<2).map { _ in try fleet.startWorker(lease: 1) }
      // The lanes it held were leased: the others take them once the lease ended.
      for worker in workers { try await fleet.expectDrained(worker) }
      try await fleet.expectEveryItemAppliedOnceInOrder()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func postgresRestartedMidDrainWorkersReconnectAndLoseNothing() async throws {
    try await withFleet(table: "restarted", lanes: Soak.size(12, soak: 30), perLane: Soak.size(20, soak: 100)) {
      fleet in
      // The workers reach the demo server through a link the test takes down, so that the drain cannot end before
      // PostgreSQL is restarted under it, however fast or slow the machine is.
      let link = try FlappingProxy(to: try #require(fleet.baseURL.port))
      defer { link.stop() }
      let workers = try (0..<2).map { _ in try fleet.startWorker(lease: 2, baseURL: link.baseURL) }
      // Both have opened the outbox: a worker still opening when PostgreSQL goes away fails to open, as a service
      // would, which is not what this test is about.
      for worker in workers { try await fleet.waitUntilStarted(worker) }
      try await fleet.waitUntilDelivered(atLeast: fleet.lanes * fleet.perLane / 10)
      link.setDown(true)
      // Stopped as a crash would stop it: every connection cut at once, mid-query.
      try await fleet.server.restart(after: .milliseconds(500), mode: "immediate")
      #expect(try await fleet.delivered() < fleet.lanes * fleet.perLane, "PostgreSQL restarted mid-drain")
      link.setDown(false)
      for worker in workers { try await fleet.expectDrained(worker) }
      try await fleet.expectEveryItemAppliedOnceInOrder()
    }
  }
}

/// A fleet's set-up: a PostgreSQL server, the demo server, and `lanes` × `perLane` items enqueued by a producer that
/// delivers nothing itself, titled `<table>-<lane>-<n>`.
struct Fleet {
  struct Worker {
    let process: ChildProcess
    let log: URL
  }

  let server: PostgresServer
  let postgres: PostgresClient
  let baseURL: URL
  let table: String
  let lanes: Int
  let perLane: Int
  let folder: URL

  /// Starts a worker process; with `killAfter`, it kills itself with SIGKILL at that delivery.
  func startWorker(lease: Double, killAfter: Int? = nil, baseURL: URL? = nil) throws -> Worker {
    let program = try #require(PostgresFleetTests.worker, "CourierOutboxPostgresWorker is built with the tests")
    let log = folder.appendingPathComponent("worker-\(UUID().uuidString).log")
    let descriptor = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    defer { close(descriptor) }
    let process = try ChildProcess.start(
      program.path,
      server.workerArguments + [table, "\(lease)", (baseURL ?? self.baseURL).absoluteString]
        + (killAfter.map { ["\($0)"] } ?? []),
      output: descriptor)
    return Worker(process: process, log: log)
  }

  /// Waits for `worker` to say it opened the outbox and started delivering, or that it failed (``expectDrained(_:)``
  /// then says how).
  func waitUntilStarted(_ worker: Worker) async throws {
    try await waitUntil("a worker opened the outbox") {
      let output = (try? String(contentsOf: worker.log, encoding: .utf8)) ?? ""
      return output.contains("started") || output.contains("CourierOutboxPostgresWorker:")
    }
  }

  /// Waits for `worker` to say it found nothing left, and to exit.
  func expectDrained(_ worker: Worker) async throws {
    // Never killed on a timer: only the suite's time limit, by cancelling the test, ends a worker that hangs.
    let end = await withTaskCancellationHandler {
      await worker.process.wait()
    } onCancel: {
      worker.process.kill(SIGKILL)
    }
    let output = (try? String(contentsOf: worker.log, encoding: .utf8)) ?? ""
    #expect(end == .exited(0), "the worker ended with \(end): \(output)")
    #expect(output.contains("drained"), "the worker drained: \(output)")
  }

  func delivered() async throws -> Int {
    for try await count in try await postgres.query(
      "SELECT COUNT(*) FROM \(unescaped: table)_item WHERE state = 'delivered'", logger: logger
    ).decode(Int64.self) {
      return Int(count)
    }
    return 0
  }

  /// The items claimed more than once.
  func itemsSentMoreThanOnce() async throws -> [Int64] {
    var ids: [Int64] = []
    for try await id in try await postgres.query(
      "SELECT id FROM \(unescaped: table)_item WHERE attempts > 1 ORDER BY id", logger: logger
    ).decode(Int64.self) {
      ids.append(id)
    }
    return ids
  }

  /// What the store holds, by lane and state, and the lanes' rows: what a failure shows.
  func states() async throws -> String {
    var lines: [String] = []
    for try await (lane, state, count) in try await postgres.query(
      "SELECT lane, state, COUNT(*) FROM \(unescaped: table)_item GROUP BY lane, state ORDER BY lane", logger: logger
    ).decode((String, String, Int64).self) {
      lines.append("\(lane) \(state) \(count)")
    }
    for try await (lane, paused, holder) in try await postgres.query(
      "SELECT name, paused_reason, holder FROM \(unescaped: table)_lane ORDER BY name", logger: logger
    ).decode((String, String?, String?).self) {
      lines.append("lane \(lane) paused: \(paused ?? "-") holder: \(holder ?? "-")")
    }
    return lines.joined(separator: "; ")
  }

  func waitUntilDelivered(atLeast count: Int) async throws {
    try await waitUntil("\(count) items delivered") { try await delivered() >= count }
  }

  /// Every item was applied by the server exactly once, and the items of each lane in the order they were enqueued.
  func expectEveryItemAppliedOnceInOrder() async throws {
    let posts = try await APIClient(baseURL: baseURL).value(Endpoint<[FleetPost]>.get("/posts"))
    var seen: [Int: [Int]] = [:]
    var applied: [String: Int] = [:]
    for post in posts where post.title.hasPrefix("\(table)-") {
      applied[post.title, default: 0] += 1
      let parts = post.title.split(separator: "-")
      if parts.count == 3, let lane = Int(parts[1]), let n = Int(parts[2]) { seen[lane, default: []].append(n) }
    }
    let twice = applied.filter { $0.value > 1 }.keys.sorted()
    #expect(twice.isEmpty, "applied twice: \(twice.prefix(20))")
    #expect(applied.count == lanes * perLane, "applied \(applied.count) of \(lanes * perLane)")
    let disordered = seen.filter { $0.value != $0.value.sorted() }.keys.sorted()
    #expect(disordered.isEmpty, "lanes applied out of order: \(disordered)")
    let count = try await delivered()
    let states = try await states()
    #expect(count == lanes * perLane, "delivered \(count): \(states)")
    print(
      "fleet \(table): \(applied.count) items applied, \(twice.count) twice, \(disordered.count) lanes out of order")
  }
}

/// Runs `body` with a fleet's set-up; skips when PostgreSQL is not installed and not required.
@available(macOS 14, iOS 17, tvOS 17, *)
func withFleet(table: String, lanes: Int, perLane: Int, _ body: (Fleet) async throws -> Void) async throws {
  try await withPostgres { server, postgres in
    try await withDemoServer { baseURL in
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-fleet-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      // The producer: another instance of the service that enqueues within its transactions and never starts.
      let producer = try await Outbox(
        client: APIClient(baseURL: baseURL), postgres: server.configuration(),
        options: testOptions(table), configuration: fastConfiguration())
      for n in 0..<perLane {
        try await postgres.withTransaction(logger: logger) { connection in
          for lane in 0..<lanes {
            try await producer.enqueue(
              Endpoint<Data>.post("/posts", body: FleetPost(title: "\(table)-\(lane)-\(n)")), lane: "lane-\(lane)",
              on: connection)
          }
        }
      }
      let fleet = Fleet(
        server: server, postgres: postgres, baseURL: baseURL, table: table, lanes: lanes, perLane: perLane,
        folder: folder)
      try await body(fleet)
    }
  }
}
