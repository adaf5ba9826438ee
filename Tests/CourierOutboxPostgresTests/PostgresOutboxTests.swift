import Courier
import CourierAsyncHTTPClient
import CourierOutbox
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import PostgresNIO
import Testing

@testable import CourierOutboxPostgres

struct FleetPost: Codable, Sendable {
  var id: Int? = nil
  var title: String
  var body: String = "b"
}

let logger = Logger(label: "courier.outbox.postgres.tests", factory: { _ in SwiftLogNoOpLogHandler() })

/// The tables `tableName`, with time limits that a busy machine never meets: only a test of the limits sets them.
func testOptions(_ tableName: String, lease: Duration = .seconds(30)) -> PostgresOutboxOptions {
  PostgresOutboxOptions(
    tableName: tableName, leaseDuration: lease, connectTimeout: .seconds(90), operationTimeout: .seconds(90))
}

/// A PostgreSQL server, the demo server and an outbox on the tables `table` delivering to it, stopped after `body`;
/// `body` may open another outbox on the same tables, and reach PostgreSQL through the client it is given.
@available(macOS 14, iOS 17, tvOS 17, *)
func withOutbox(
  _ table: String,
  _ body: (_ outbox: Outbox, _ reopen: () async throws -> Outbox, _ postgres: PostgresClient) async throws -> Void
) async throws {
  try await withPostgres { server, postgres in
    try await withDemoServer { baseURL in
      let client = APIClient(baseURL: baseURL) { $0.transport = AsyncHTTPClientTransport() }
      let open = {
        try await Outbox(
          client: client, postgres: server.configuration(), options: testOptions(table),
          configuration: fastConfiguration())
      }
      let outbox = try await open()
      try await body(outbox, open, postgres)
      await outbox.stop()
    }
  }
}

/// An outbox on the tables `table` that sends nothing (it is offline), for tests that drive its store.
@available(macOS 14, iOS 17, tvOS 17, *)
func offlineOutbox(_ server: PostgresServer, _ table: String) async throws -> Outbox {
  var configuration = fastConfiguration()
  configuration.monitor = .constant(.offline)
  return try await Outbox(
    client: APIClient(baseURL: URL(string: "http://127.0.0.1:9")!), postgres: server.configuration(),
    options: testOptions(table), configuration: configuration)
}

/// An outbox on the tables `table` sending through `transport`, online when `network` is, with `lease` and what
/// `configure` changes.
@available(macOS 14, iOS 17, tvOS 17, *)
func stubOutbox(
  _ server: PostgresServer, _ table: String, _ transport: StubTransport, _ network: SwitchedNetwork,
  lease: Duration = .seconds(30), _ configure: (inout Outbox.Configuration) -> Void = { _ in }
) async throws -> Outbox {
  var configuration = fastConfiguration()
  configuration.monitor = network.monitor
  configure(&configuration)
  return try await Outbox(
    client: APIClient.testing(baseURL: URL(string: "https://api.example.test")!, transport: transport),
    postgres: server.configuration(), options: testOptions(table, lease: lease), configuration: configuration)
}

/// An online configuration with short backoffs.
func fastConfiguration() -> Outbox.Configuration {
  var configuration = Outbox.Configuration()
  configuration.monitor = .constant(NetworkPath(isOnline: true))
  configuration.baseDelay = 0.05
  configuration.maxDelay = 0.5
  configuration.observesAppLifecycle = false
  return configuration
}

/// The outbox on PostgreSQL: the enqueue joins the service's transaction, an idle worker wakes on `NOTIFY`, the
/// delivery logic (classification, dead letters, keys) is the SQLite store's, and each failure to open says what to
/// fix.
@Suite(.hangGuard) struct PostgresOutboxTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aRolledBackTransactionLeavesNoItemAndACommittedOneAlwaysHasIt() async throws {
    try await withPostgres { server, postgres in
      let client = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!)
      let outbox = try await Outbox(
        client: client, postgres: server.configuration(), options: testOptions("rollback"),
        configuration: fastConfiguration())
      try await postgres.query("CREATE TABLE orders (id INTEGER PRIMARY KEY, state TEXT NOT NULL)", logger: logger)
      struct Abandoned: Error {}
      await #expect(throws: (any Error).self) {
        try await postgres.withTransaction(logger: logger) { connection in
          try await connection.query("INSERT INTO orders VALUES (1, 'paid')", logger: logger)
          try await outbox.enqueue(
            Endpoint<Data>.post("/webhooks/paid", body: FleetPost(title: "order 1")), on: connection)
          throw Abandoned()
        }
      }
      #expect(try await outbox.items().isEmpty, "a rolled-back transaction left an outbox item")
      let id = try await postgres.withTransaction(logger: logger) { connection in
        try await connection.query("INSERT INTO orders VALUES (2, 'paid')", logger: logger)
        return try await outbox.enqueue(
          Endpoint<Data>.post("/webhooks/paid", body: FleetPost(title: "order 2")), lane: "orders", on: connection)
      }
      let items = try await outbox.items()
      #expect(items.map(\.id) == [id])
      #expect(items.first?.target == "/webhooks/paid")
      #expect(items.first?.state == .pending)
      var orders: [Int] = []
      for try await order in try await postgres.query("SELECT id FROM orders", logger: logger).decode(Int.self) {
        orders.append(order)
      }
      #expect(orders == [2])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func anEnqueueOnAnotherConnectionWakesAnIdleWorkerThroughNotify() async throws {
    try await withPostgres { server, postgres in
      try await withDemoServer { baseURL in
        let client = APIClient(baseURL: baseURL) { $0.transport = AsyncHTTPClientTransport() }
        // Leases of twenty minutes: the worker's own look for ended leases comes 400 s after it started, so only the
        // NOTIFY can wake it within the wait's 100 s. (With five-minute leases the first look, 100 s after the start,
        // fell within a wait begun later, and a worker without NOTIFY passed.)
        let options = testOptions("notify", lease: .seconds(1200))
        let worker = try await Outbox(
          client: client, postgres: server.configuration(), options: options, configuration: fastConfiguration())
        await worker.start()
        try await worker.waitUntilDrained()
        // Another instance of the service enqueues, without starting a worker of its own.
        let producer = try await Outbox(
          client: client, postgres: server.configuration(), options: options, configuration: fastConfiguration())
        // The worker listens on a connection of its own once started: an enqueue before its LISTEN would wait for
        // the lease keeper's look.
        try await waitUntil("the worker listens") {
          let listening = try await postgres.query(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'", logger: logger)
          for try await count in listening.decode(Int64.self) { return count > 0 }
          return false
        }
        let id = try await postgres.withTransaction(logger: logger) { connection in
          try await producer.enqueue(
            Endpoint<Data>.post("/posts", body: FleetPost(title: "woken")), lane: "notify", on: connection)
        }
        try await waitUntil("the idle worker delivered the item", within: 100) {
          try await worker.items(in: [.delivered]).map(\.id) == [id]
        }
        let titles = try await APIClient(baseURL: baseURL).value(Endpoint<[FleetPost]>.get("/posts")).map(\.title)
        #expect(titles.filter { $0 == "woken" }.count == 1)
        await worker.stop()
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func classificationDeadLettersAndKeysAreTheSharedDeliveryLogic() async throws {
    try await withPostgres { server, postgres in
      try await withDemoServer { baseURL in
        let client = APIClient(baseURL: baseURL) {
          $0.transport = AsyncHTTPClientTransport()
          // A default field is not stored with the items, so that an item below has none at all.
          $0.defaultHeaders[.acceptEncoding] = "identity"
        }
        let outbox = try await Outbox(
          client: client, postgres: server.configuration(), options: testOptions("logic"),
          configuration: fastConfiguration())
        // An empty title is refused with 422: a dead letter, which does not hold back the other lane, and whose
        // dependant is cancelled with it.
        let poison = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: FleetPost(title: "")), lane: "a")
        let dependant = try await outbox.enqueue(
          Endpoint<Data>.post("/posts", body: FleetPost(title: "after poison")), lane: "a", after: poison)
        let good = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: FleetPost(title: "good")), lane: "b")
        // A value bound from an earlier item's answer: the picture goes to the id the server gave the post.
        let post = try await outbox.enqueue(
          Endpoint<Data>.post("/posts", body: FleetPost(title: "pictured")), lane: "c")
        let picture = try await outbox.enqueue(
          Endpoint<Data>.put("/posts/{id}/image").body(.data(Data("picture".utf8), contentType: "image/png")),
          lane: "c", after: post,
          bindings: [.json("id", at: "/id")])
        try await outbox.waitUntilDrained()
        let items = Dictionary(uniqueKeysWithValues: try await outbox.items().map { ($0.id, $0) })
        #expect(items[poison]?.state == .deadLetter)
        #expect(items[poison]?.responseStatus?.code == 422)
        #expect(items[dependant]?.state == .cancelled)
        #expect(items[good]?.state == .delivered)
        #expect(items[picture]?.state == .delivered, "\(String(describing: items[picture]?.reason))")
        let postID = try #require(try await outbox.store.result(for: post)?.decode(FleetPost.self).id)
        #expect(items[picture]?.target == "/posts/\(postID)/image")
        let stored = try await APIClient(baseURL: baseURL).value(Endpoint<Data>.get("/posts/\(postID)/image"))
        #expect(stored == Data("picture".utf8))
        // Enqueued once its dependency was delivered: the value is bound at the enqueue.
        let late = try await outbox.enqueue(
          Endpoint<Data>.put("/posts/{id}/image").body(.data(Data("late".utf8), contentType: "image/png")),
          lane: "d", after: post, bindings: [.json("id", at: "/id")])
        try await outbox.waitUntilDrained()
        let lateItem = try await outbox.items().first { $0.id == late }
        #expect(lateItem?.state == .delivered)
        #expect(lateItem?.target == "/posts/\(postID)/image")
        #expect(
          try await APIClient(baseURL: baseURL).value(Endpoint<Data>.get("/posts/\(postID)/image")) == Data("late".utf8)
        )
        // An item with no header fields and no body.
        let removal = try await outbox.enqueue(Endpoint<Data>.delete("/posts/\(postID)"), lane: "e")
        try await outbox.waitUntilDrained()
        let removed = try await outbox.items().first { $0.id == removal }
        #expect(removed?.headerFields.isEmpty == true, "\(String(describing: removed?.headerFields))")
        #expect(removed?.state == .delivered, "\(String(describing: removed?.reason))")
        // A dead letter requeued gets a new key.
        let key = try #require(items[poison]?.idempotencyKey)
        try await outbox.requeue(poison)
        let requeued = try await outbox.items().first { $0.id == poison }
        #expect(requeued?.idempotencyKey != key)
        await outbox.stop()
      }
    }
  }

  /// A delivery marks the lane's next item sending in the same round trip; one that may not go yet (here, not before
  /// an hour from now) is given back at once, uncounted, as if it had never been claimed (on the store's own pool, in
  /// a statement right after the delivery's, so the test waits for it).
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func theNextItemClaimedWithADeliveryIsGivenBackWhenItMayNotGoYet() async throws {
    try await withOutbox("given_back") { outbox, _, _ in
      let first = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: FleetPost(title: "now")), lane: "a")
      let later = try await outbox.enqueue(
        Endpoint<Data>.post("/posts", body: FleetPost(title: "in an hour")), lane: "a",
        constraints: OutboxConstraints(notBefore: Date().addingTimeInterval(3600)))
      let next = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: FleetPost(title: "after")), lane: "a")
      try await waitUntil("the first delivered and the next given back") {
        let items = try await outbox.items()
        return items.first { $0.id == first }?.state == .delivered && items.first { $0.id == later }?.state == .pending
      }
      let items = Dictionary(uniqueKeysWithValues: try await outbox.items().map { ($0.id, $0) })
      #expect(items[later]?.attempts == 0, "a claim given back is not an attempt")
      #expect(items[next]?.state == .pending, "the lane waits for it")
    }
  }

  /// Tables made by a version of the outbox without the store's functions (or whose functions were dropped) get them
  /// at the next opening, and deliver through them.
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func tablesWithoutTheStoresFunctionsGetThemAtTheNextOpening() async throws {
    try await withOutbox("functions") { first, reopen, postgres in
      let names = try PostgresOutboxNames(schema: "public", table: "functions")
      let functions = PostgresOutboxSchema.functions(names).map(\.name)
      let existing: @Sendable () async throws -> Int = {
        var count = 0
        for name in functions {
          for try await exists in try await postgres.query(
            "SELECT to_regproc(\(name)) IS NOT NULL", logger: Logger(label: "test")
          ).decode(Bool.self) where exists {
            count += 1
          }
        }
        return count
      }
      await first.stop()
      #expect(try await existing() == functions.count)
      for name in functions {
        try await postgres.query(PostgresQuery(unsafeSQL: "DROP FUNCTION \(name)"), logger: Logger(label: "test"))
      }
      #expect(try await existing() == 0)
      let reopened = try await reopen()
      try #require(try await existing() == functions.count, "made again at the opening")
      let id = try await reopened.enqueue(Endpoint<Data>.post("/posts", body: FleetPost(title: "through them")))
      try await reopened.waitUntilDrained()
      #expect(try await reopened.items().first { $0.id == id }?.state == .delivered)
      await reopened.stop()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func anOutboxOnTheServicesOwnClientDeliversAndLeavesItsSessionsAndItsRunAlone() async throws {
    try await withPostgres { _, postgres in
      try await withDemoServer { baseURL in
        let client = APIClient(baseURL: baseURL) { $0.transport = AsyncHTTPClientTransport() }
        var outbox: Outbox? = try await Outbox(
          client: client, postgres: postgres, options: testOptions("shared"), configuration: fastConfiguration())
        let first = try await outbox?.enqueue(Endpoint<Data>.post("/posts", body: FleetPost(title: "one")), lane: "a")
        let logger = Logger(label: "test")
        let second = try await postgres.withTransaction(logger: logger) { connection in
          try await outbox?.enqueue(
            Endpoint<Data>.post("/posts", body: FleetPost(title: "two")), lane: "a", on: connection)
        }
        try await outbox?.waitUntilDrained()
        let states = try await outbox?.items().map(\.state)
        #expect(states == [.delivered, .delivered])
        #expect(try await outbox?.items().map(\.id) == [first, second].compactMap { $0 })
        // The outbox's transactions set its limits for themselves (a fifth below the 90 s operation timeout)…
        let store = try #require(outbox?.store as? PostgresOutboxStore)
        let limits = try await store.transaction { try await Self.timeLimits(on: $0, logger) }
        #expect(limits == ["72s", "72s"])
        // So do its statements outside a transaction of their own (a claim, a read), which run in one that sets them.
        let alone = try await store.run { try await Self.timeLimits(on: $0, logger) }
        #expect(alone == ["72s", "72s"])
        // … and for themselves alone: the service's sessions keep theirs.
        for try await timeout in try await postgres.query("SHOW statement_timeout", logger: logger).decode(String.self)
        {
          #expect(timeout == "0")
        }
        await outbox?.stop()
        outbox = nil
        // The client still runs once the outbox is gone: the service ends it, not the outbox.
        var answered = false
        for try await one in try await postgres.query("SELECT 1", logger: logger).decode(Int.self) {
          answered = one == 1
        }
        #expect(answered)
      }
    }
  }

  /// The `statement_timeout` and `lock_timeout` in force on `connection`.
  static func timeLimits(on connection: PostgresConnection, _ logger: Logger) async throws -> [String] {
    var limits: [String] = []
    let query: PostgresQuery = "SELECT current_setting('statement_timeout'), current_setting('lock_timeout')"
    for try await (statement, lock) in try await connection.query(query, logger: logger).decode((String, String).self) {
      limits = [statement, lock]
    }
    return limits
  }

  @Test func anOutboxOnAClientThatIsNotRunningOrReadsOtherwiseSaysWhatToFix() async throws {
    try await withPostgres { server, _ in
      let api = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!)
      // Never run: opening ends at its connect timeout and says to run the client.
      let idle = PostgresClient(configuration: server.configuration())
      var options = testOptions("idle")
      options.connectTimeout = .milliseconds(300)
      await #expect {
        _ = try await Outbox(client: api, postgres: idle, options: options)
      } throws: { error in
        let error = error as? OutboxError
        return error?.kind == .storeUnreachable && error?.message.contains("run()") == true
      }
      // A client whose sessions read a snapshot of the transaction's start, not committed data.
      var snapshot = server.configuration()
      snapshot.options.additionalStartupParameters = [("default_transaction_isolation", "repeatable read")]
      let other = PostgresClient(configuration: snapshot)
      let running = Task { await other.run() }
      defer { running.cancel() }
      await #expect {
        _ = try await Outbox(client: api, postgres: other, options: testOptions("snapshot"))
      } throws: { error in
        let error = error as? OutboxError
        return error?.kind == .invalidRequest && error?.message.contains("repeatable read") == true
      }
    }
  }

  @Test func anItemPastItsDeadlineInALaneNoOneHoldsBecomesADeadLetter() async throws {
    try await withPostgres { server, postgres in
      let api = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!)
      let options = testOptions("deadline")
      let producer = try await Outbox(
        client: api, postgres: server.configuration(), options: options, configuration: fastConfiguration())
      let id = try await postgres.withTransaction(logger: logger) { connection in
        try await producer.enqueue(
          Endpoint<Data>.post("/posts", body: FleetPost(title: "late")), lane: "late",
          constraints: OutboxConstraints(giveUpAfter: Date().addingTimeInterval(-1)), on: connection)
      }
      // The worker finds it past its deadline before any worker claimed its lane.
      let worker = try await Outbox(
        client: api, postgres: server.configuration(), options: options, configuration: fastConfiguration())
      await worker.start()
      try await waitUntil("the item became a dead letter") {
        try await worker.items(in: [.deadLetter]).map(\.id) == [id]
      }
      #expect(try await worker.items().first?.reason?.contains("deadline") == true)
      await worker.stop()
    }
  }

  @Test func aWorkerWhoseLeaseEndedAndWasTakenRecordsNothing() async throws {
    try await withPostgres { server, postgres in
      let api = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!)
      // Leases that outlive the test: the first worker's lease ends only when the test ends it.
      let options = testOptions("fenced", lease: .seconds(600))
      let first = try #require(
        try await Outbox(client: api, postgres: server.configuration(), options: options).store as? PostgresOutboxStore)
      let second = try #require(
        try await Outbox(client: api, postgres: server.configuration(), options: options).store as? PostgresOutboxStore)
      let request = StoredRequest(
        method: .post, target: "/posts", headerFields: [:], body: Data("{}".utf8), bodyDigest: "d",
        idempotencyKey: "k")
      let id = try await first.insert(
        NewItem(request: request, lane: "a", kind: "request", kindVersion: 1, constraints: .none, enqueuedAt: Date()))
      _ = try await first.markSending(id)
      // While the first worker's lease runs, the lane is not the second's to take.
      await #expect(throws: OutboxError.self) { try await second.markSending(id) }
      try await postgres.query("UPDATE fenced_lane SET lease_until = now() - interval '1 second'", logger: logger)
      let taken = try await second.markSending(id)
      #expect(taken.item.attempts == 2)
      let answer = RecordedResponse(status: .created, headerFields: [:], body: Data())
      // The first worker's answer came late: its lease is gone, and so is its right to record.
      await #expect(throws: OutboxError.self) {
        try await first.record(.delivered(answer), for: id, lane: "a", at: Date())
      }
      await #expect(throws: OutboxError.self) {
        try await first.record(.retry(at: Date(), heldUntil: nil, reason: "late"), for: id, lane: "a", at: Date())
      }
      #expect(try await first.items(in: nil).first?.state == .sending)
      _ = try await second.record(.delivered(answer), for: id, lane: "a", at: Date())
      #expect(try await first.items(in: nil).first?.state == .delivered)
    }
  }

  @Test func eachFailureToOpenSaysWhatToFix() async throws {
    try await withPostgres { server, postgres in
      let api = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!)
      // No server at the address.
      let closed = try ClosedPort()
      try await Self.opening(
        PostgresClient.Configuration(
          host: "127.0.0.1", port: closed.port, username: "courier", password: "x", database: "postgres",
          tls: .disable), api, expect: .storeUnreachable, naming: "port")
      // Wrong credentials.
      try await Self.opening(
        server.configuration(password: "wrong"), api, expect: .storeAccessDenied, naming: "password")
      // A database that does not exist.
      try await Self.opening(
        server.configuration(database: "nowhere"), api, expect: .storeNotFound, naming: "create the database")
      // A schema that does not exist.
      let missing = await #expect(throws: OutboxError.self) {
        try await Outbox(
          client: api, postgres: server.configuration(),
          options: PostgresOutboxOptions(schema: "billing", connectTimeout: .seconds(60)))
      }
      #expect(missing?.kind == .storeNotFound)
      #expect(missing?.message.contains("CREATE SCHEMA billing") == true)
      // A name that is not a plain identifier is never written into a statement.
      let invalid = await #expect(throws: OutboxError.self) {
        try await Outbox(
          client: api, postgres: server.configuration(),
          options: PostgresOutboxOptions(tableName: "x\"; DROP", connectTimeout: .seconds(60)))
      }
      #expect(invalid?.kind == .invalidRequest)
      // Tables migrated by a newer version are left as they are.
      _ = try await Outbox(
        client: api, postgres: server.configuration(), options: testOptions("future"))
      try await postgres.query("INSERT INTO future_version (version) VALUES (99)", logger: logger)
      let newer = await #expect(throws: OutboxError.self) {
        try await Outbox(
          client: api, postgres: server.configuration(), options: testOptions("future"))
      }
      #expect(newer?.kind == .newerSchema)
      // Opening again is a no-op: the migration ran once.
      _ = try await Outbox(
        client: api, postgres: server.configuration(), options: testOptions("again"))
      _ = try await Outbox(
        client: api, postgres: server.configuration(), options: testOptions("again"))
      let names = try PostgresOutboxNames(schema: "public", table: "again")
      var versions: [Int] = []
      for try await version in try await postgres.query("SELECT version FROM again_version", logger: logger)
        .decode(Int.self)
      {
        versions.append(version)
      }
      #expect(versions == Array(1...PostgresOutboxSchema.migrations(names).count))
    }
  }

  /// Opens an outbox with `configuration` and expects `kind`, with a message naming what to fix.
  static func opening(
    _ configuration: PostgresClient.Configuration, _ api: APIClient, expect kind: OutboxError.Kind,
    naming fix: String
  ) async throws {
    let error = await #expect(throws: OutboxError.self) {
      try await Outbox(
        client: api, postgres: configuration, options: PostgresOutboxOptions(connectTimeout: .seconds(60)))
    }
    #expect(error?.kind == kind, "\(String(describing: error))")
    #expect(error?.message.contains(fix) == true, "\(String(describing: error))")
  }
}

/// Many items enqueued within the service's transaction in one statement.
@Suite(.hangGuard) struct PostgresBatchEnqueueTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aBatchEnqueuedInTheServicesTransactionIsStoredInOrderInOneStatementOrNotAtAll() async throws {
    try await withPostgres { server, postgres in
      let outbox = try await offlineOutbox(server, "batch")
      let later = Date(timeIntervalSince1970: 1_900_000_000)
      let endpoints =
        (0..<50).map {
          Endpoint<Data>.post("/hooks/\($0)", body: FleetPost(title: "hook \($0)")).header("X-N", "\($0)")
        }
        + [Endpoint<Data>.post("/hooks/empty")]
      struct Abandoned: Error {}
      await #expect(throws: (any Error).self) {
        try await postgres.withTransaction(logger: logger) { connection in
          try await outbox.enqueue(contentsOf: endpoints, lane: "hooks", on: connection)
          throw Abandoned()
        }
      }
      #expect(try await outbox.items().isEmpty, "a rolled-back transaction left items")

      let ids = try await postgres.withTransaction(logger: logger) { connection in
        try await outbox.enqueue(
          contentsOf: endpoints, lane: "hooks", kind: Outbox.Kind("hook", version: 2),
          constraints: OutboxConstraints(allowsExpensiveNetwork: false, notBefore: later), on: connection)
      }
      #expect(ids.count == 51)
      #expect(ids == ids.sorted())
      let items = try await outbox.items()
      #expect(items.map(\.id) == ids)
      #expect(items.map(\.target) == (0..<50).map { "/hooks/\($0)" } + ["/hooks/empty"])
      #expect(items.allSatisfy { $0.lane == "hooks" && $0.kind == "hook" && $0.kindVersion == 2 && $0.after == nil })
      #expect(items.allSatisfy { $0.state == .pending && $0.attempts == 0 })
      #expect(Set(items.map(\.idempotencyKey)).count == 51, "each item has a key of its own")
      #expect(items[7].headerFields[HTTPField.Name("X-N")!] == "7")
      #expect(items[50].bodyLength == 0)
      let head = try #require(try await outbox.store.laneHead("hooks"))
      #expect(head.item.id == ids[0])
      #expect(head.constraints.notBefore == later)
      #expect(head.constraints.giveUpAfter == nil)
      #expect(head.constraints.allowsExpensiveNetwork == false)
      #expect(head.constraints.allowsConstrainedNetwork == true)
      let (_, first) = try await outbox.store.markSending(ids[0])
      #expect(try JSONDecoder().decode(FleetPost.self, from: first.body ?? Data()).title == "hook 0")
      let bodies = try await postgres.query(
        "SELECT body IS NULL FROM batch_item WHERE id = ANY(\([ids[49].rawValue, ids[50].rawValue])) ORDER BY id",
        logger: logger)
      var missing: [Bool] = []
      for try await isNull in bodies.decode(Bool.self) { missing.append(isNull) }
      #expect(missing == [false, true], "an item without a body is stored without one")

      // One request that cannot be stored refuses the whole batch.
      let refused = await #expect(throws: PostgresTransactionError.self) {
        try await postgres.withTransaction(logger: logger) { connection in
          try await outbox.enqueue(
            contentsOf: [Endpoint<Data>.post("/hooks"), Endpoint<Data>.get("/hooks")], lane: "hooks", on: connection)
        }
      }
      #expect((refused?.closureError as? OutboxError)?.kind == .invalidRequest)
      #expect(try await outbox.items().count == 51)
      await outbox.stop()
    }
  }
}

/// Waits until a session of the server waits for a lock another holds.
func waitUntilASessionWaitsForALock(_ postgres: PostgresClient, _ what: String) async throws {
  try await waitUntil(what) {
    for try await waiting in try await postgres.query(
      "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'", logger: logger
    ).decode(Int64.self) {
      return waiting > 0
    }
    return false
  }
}

/// What a service's open transaction holds while workers deliver.
@Suite(.hangGuard) struct PostgresDeliveryLockTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func anOpenTransactionThatEnqueuedADependantDoesNotHoldItsDependencysDeliveryUp() async throws {
    try await withPostgres { server, postgres in
      let transport = StubTransport(.post("/hooks/first").reply(.status(.created)))
      let network = SwitchedNetwork(NetworkPath(isOnline: false))
      let outbox = try await stubOutbox(server, "held", transport, network)
      let first = try await outbox.enqueue(Endpoint<Data>.post("/hooks/first", body: FleetPost(title: "first")))
      // The dependant's insert holds its foreign key's lock on the first item's row until the transaction commits;
      // the first item is delivered meanwhile, and its delivery recorded, before the transaction ends.
      try await postgres.withTransaction(logger: logger) { connection in
        try await outbox.enqueue(
          Endpoint<Data>.post("/hooks/second", body: FleetPost(title: "second")), lane: "second", after: first,
          on: connection)
        network.set(NetworkPath(isOnline: true))
        try await waitUntil("the first item's delivery is recorded while the transaction is open") {
          try await outbox.items(in: [.delivered]).map(\.id) == [first]
        }
      }
      #expect(transport.requests.count == 1, "the first item was sent again: its delivery was not recorded at once")
      await outbox.stop()
    }
  }

  /// On the store's own pool, a delivery whose dependant binds values from its answer is recorded in one transaction
  /// with the values it binds: while the binding waits for the dependant's row, no other session sees the item
  /// delivered (were it, another worker could send the dependant unbound).
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aDeliveryIsSeenOnlyWithTheValuesItsDependantBinds() async throws {
    try await withPostgres { server, postgres in
      let transport = StubTransport(
        .post("/hooks").reply(.json(["id": 7], status: .created)), .post("/hooks/7").reply(.status(.created)))
      let network = SwitchedNetwork(NetworkPath(isOnline: false))
      let outbox = try await stubOutbox(server, "bound_once", transport, network)
      let first = try await outbox.enqueue(Endpoint<Data>.post("/hooks", body: FleetPost(title: "first")))
      let dependant = try await outbox.enqueue(
        Endpoint<Data>.post("/hooks/{id}", body: FleetPost(title: "d")), lane: "d", after: first,
        bindings: [.json("id", at: "/id")])
      func state(of id: OutboxItem.ID) async throws -> String? {
        for try await state in try await postgres.query(
          "SELECT state FROM bound_once_item WHERE id = \(id.rawValue)", logger: logger
        ).decode(String.self) {
          return state
        }
        return nil
      }
      try await postgres.withTransaction(logger: logger) { connection in
        // The dependant's row is held: the delivery's binding waits for it.
        for try await _ in try await connection.query(
          "SELECT 1 FROM bound_once_item WHERE id = \(dependant.rawValue) FOR UPDATE", logger: logger)
        {}
        network.set(NetworkPath(isOnline: true))
        try await waitUntilASessionWaitsForALock(
          postgres, "the first item's binding waits for the dependant's row")
        #expect(transport.requests.count == 1)
        #expect(
          try await state(of: first) == "sending",
          "the delivery was recorded before its dependant's values were bound")
      }
      try await outbox.waitUntilDrained()
      #expect(try await outbox.items().map(\.state) == [.delivered, .delivered])
      #expect(transport.requests.compactMap(\.request.path) == ["/hooks", "/hooks/7"], "the dependant was not bound")
      await outbox.stop()
    }
  }

  /// On the service's own client (each record in a transaction of the outbox's), a delivery whose item an open
  /// transaction holds — it enqueued a dependant that binds values from the item's answer — waits for it, and then
  /// binds the dependant's values: the look for dependants comes after the wait, not before.
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aDeliveryThatWaitedForAnEnqueueBindsTheDependantItEnqueued() async throws {
    try await withPostgres { server, postgres in
      // The first item's answer waits until the service's transaction enqueued the dependant.
      let enqueued = Locked(false)
      let transport = StubTransport(
        .post("/hooks").reply { _ in
          while !enqueued.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
          return .json(["id": 7], status: .created)
        },
        .post("/hooks/7").reply(.status(.created)))
      let network = SwitchedNetwork(NetworkPath(isOnline: false))
      var configuration = fastConfiguration()
      configuration.monitor = network.monitor
      let outbox = try await Outbox(
        client: APIClient.testing(baseURL: URL(string: "https://api.example.test")!, transport: transport),
        postgres: postgres, options: testOptions("bound_late"), configuration: configuration)
      let first = try await outbox.enqueue(Endpoint<Data>.post("/hooks", body: FleetPost(title: "first")))
      network.set(NetworkPath(isOnline: true))
      try await waitUntil("the first item is sent") { transport.requests.count == 1 }
      let dependant = try await postgres.withTransaction(logger: logger) { connection in
        // The enqueue holds the first item's row (`FOR SHARE`) until the transaction ends: the record of the first
        // item's delivery waits for it.
        let dependant = try await outbox.enqueue(
          Endpoint<Data>.post("/hooks/{id}", body: FleetPost(title: "d")), lane: "d", after: first,
          bindings: [.json("id", at: "/id")], on: connection)
        enqueued.withLock { $0 = true }
        try await waitUntilASessionWaitsForALock(
          postgres, "the delivery's record waits for the enqueue's transaction")
        return dependant
      }
      try await outbox.waitUntilDrained()
      let items = try await outbox.items()
      #expect(items.map(\.id) == [first, dependant])
      #expect(items.map(\.state) == [.delivered, .delivered])
      #expect(transport.requests.compactMap(\.request.path) == ["/hooks", "/hooks/7"], "the dependant was not bound")
      await outbox.stop()
    }
  }

  /// A run's claim stops before an item an open transaction holds (it enqueued a dependant that binds values from
  /// that item's answer), rather than wait for it while holding the rows of the deliveries it records: the items
  /// before it are delivered and recorded while the transaction is open, and the rest once it commits.
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aRunsClaimStopsBeforeAnItemAnOpenTransactionHolds() async throws {
    try await withPostgres { server, postgres in
      let transport = StubTransport(
        .post("/hooks").reply(.json(["id": 7], status: .created)), .post("/hooks/7").reply(.status(.created)))
      let network = SwitchedNetwork(NetworkPath(isOnline: false))
      let outbox = try await stubOutbox(server, "held_run", transport, network)
      var ids: [OutboxItem.ID] = []
      for title in ["a1", "a2", "a3", "a4"] {
        ids.append(try await outbox.enqueue(Endpoint<Data>.post("/hooks", body: FleetPost(title: title)), lane: "a"))
      }
      let dependant = try await postgres.withTransaction(logger: logger) { connection in
        // The enqueue locks the third item's row (`FOR SHARE`) until the transaction ends.
        let dependant = try await outbox.enqueue(
          Endpoint<Data>.post("/hooks/{id}", body: FleetPost(title: "d")), lane: "d", after: ids[2],
          bindings: [.json("id", at: "/id")], on: connection)
        network.set(NetworkPath(isOnline: true))
        try await waitUntil("the items before the held one are delivered while the transaction is open") {
          try await outbox.items(in: [.delivered]).map(\.id) == [ids[0], ids[1]]
        }
        return dependant
      }
      try await outbox.waitUntilDrained()
      let items = try await outbox.items()
      #expect(items.map(\.id) == ids + [dependant])
      #expect(items.allSatisfy { $0.state == .delivered && $0.attempts == 1 })
      #expect(transport.requests.compactMap(\.request.path) == ["/hooks", "/hooks", "/hooks", "/hooks", "/hooks/7"])
      await outbox.stop()
    }
  }
}
