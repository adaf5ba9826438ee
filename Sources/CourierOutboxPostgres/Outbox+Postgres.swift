import Courier
import CourierOutbox
import Foundation
import Logging
import PostgresNIO

/// Where an outbox on PostgreSQL keeps its tables, and how the workers of a fleet share its lanes.
public struct PostgresOutboxOptions: Sendable {
  /// The schema the tables go in; it must exist (the outbox creates its tables, not the schema).
  public var schema: String
  /// The tables' name: `<tableName>_item`, `<tableName>_lane` and `<tableName>_version`, and the prefix of the
  /// functions made beside them (`<tableName>_record_deliveries_2`, `<tableName>_lane_heads_1`, `<tableName>_claim_heads_1`).
  public var tableName: String
  /// How long a worker holds a lane without renewing its lease: a worker that died leaves its lanes to the others
  /// after this long. Renewed every third of it while an attempt is under way.
  public var leaseDuration: Duration
  /// How long opening the outbox waits for PostgreSQL before it throws `OutboxError.Kind.storeUnreachable`.
  public var connectTimeout: Duration
  /// How long one of the store's operations (a claim, a record, a read) may take before it throws
  /// `OutboxError.Kind.storeUnreachable` and is cancelled: what it was recording is recorded again, or the item sent
  /// again with its key. The `statement_timeout` and `lock_timeout` of the outbox's sessions (or, on the service's own
  /// client, of its transactions) are set a fifth below it, so that no statement outlives the operation that made it.
  public var operationTimeout: Duration
  /// Where the store logs its queries and reconnections.
  public var logger: Logger

  /// Tables `public.courier_outbox_*`, 30-second leases, 10 seconds to open and for each operation.
  public init(
    schema: String = "public", tableName: String = "courier_outbox", leaseDuration: Duration = .seconds(30),
    connectTimeout: Duration = .seconds(10), operationTimeout: Duration = .seconds(10),
    logger: Logger = Logger(label: "courier.outbox.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
  ) {
    self.schema = schema
    self.tableName = tableName
    self.leaseDuration = leaseDuration
    self.connectTimeout = connectTimeout
    self.operationTimeout = operationTimeout
    self.logger = logger
  }

  /// The sessions' `statement_timeout` and `lock_timeout`, in milliseconds: a fifth below ``operationTimeout``.
  var statementTimeoutMilliseconds: Int64 {
    let (seconds, attoseconds) = operationTimeout.components
    return max(1, (seconds * 1000 + attoseconds / 1_000_000_000_000_000) * 4 / 5)
  }
}

extension Outbox {
  /// An outbox whose items live in PostgreSQL, shared by every instance of a service: each runs a delivery worker,
  /// and each item is delivered by one of them, in order within its lane, with its `Idempotency-Key`.
  ///
  /// ```swift
  /// let database = PostgresClient.Configuration(
  ///   host: "db.internal", username: "orders", password: secret, database: "orders", tls: .require(tls))
  /// let outbox = try await Outbox(client: api, postgres: database)
  /// try await postgres.withTransaction(logger: logger) { connection in
  ///   try await connection.query("UPDATE orders SET state = 'paid' WHERE id = \(order)", logger: logger)
  ///   try await outbox.enqueue(Endpoint<Data>.post("/webhooks/paid", body: event), on: connection)
  /// }
  /// ```
  ///
  /// The outbox keeps a small pool of its own to `postgres` (its worker's claims and records, and one connection that
  /// listens for other workers' changes); enqueue within the service's transactions on the service's own connections.
  /// Creates or migrates the tables in ``PostgresOutboxOptions/schema``, which must exist, and makes the store's
  /// functions there when they are missing.
  ///
  /// Throws `OutboxError.Kind.storeUnreachable` when no server answers, `OutboxError.Kind.storeAccessDenied` for
  /// credentials refused or missing rights, `OutboxError.Kind.storeNotFound` for a missing database or schema, and
  /// `OutboxError.Kind.newerSchema` when a newer version of the outbox migrated the tables; each says what to fix.
  public init(
    client: APIClient, postgres: PostgresClient.Configuration, options: PostgresOutboxOptions = PostgresOutboxOptions(),
    configuration: Configuration = Configuration()
  ) async throws {
    let names = try PostgresOutboxNames(schema: options.schema, table: options.tableName)
    let logger = options.logger
    var poolConfiguration = postgres
    // Claims and records of up to `maxConcurrentLanes` lanes at once, the listener and the lease keeper.
    poolConfiguration.options.maximumConnections = max(4, configuration.maxConcurrentLanes + 2)
    // The store's transactions read what committed before each statement (its binding of dependants relies on it),
    // whatever the database's default; and a statement or a lock wait ends before the store gives up on the
    // operation (PostgresOutboxStore.guarded), so that no statement outlives it.
    let statementTimeout = "\(options.statementTimeoutMilliseconds)ms"
    poolConfiguration.options.additionalStartupParameters += [
      ("default_transaction_isolation", "read committed"), ("statement_timeout", statementTimeout),
      ("lock_timeout", statementTimeout),
    ]
    let pool = PostgresClient(configuration: poolConfiguration, backgroundLogger: logger)
    let running = Task { await pool.run() }
    let migrate: @Sendable () async throws -> Void = {
      try await pool.withConnection { connection in
        try await PostgresOutboxSchema.migrate(names, on: connection, logger: logger)
      }
    }
    let deadline = ContinuousClock.now + options.connectTimeout
    let firstLook = min(options.connectTimeout / 2, .seconds(2))
    do {
      do {
        try await TimeLimit.run(firstLook, migrate)
      } catch is TimeLimit.Exceeded {
        // The pool retries quietly: one connection of the outbox's own says why it cannot connect, if it cannot.
        if let problem = await PostgresOutboxErrors.diagnose(
          postgres, names: names, within: (deadline - ContinuousClock.now) / 2, logger: logger)
        {
          throw problem
        }
        try await TimeLimit.run(deadline - ContinuousClock.now, migrate)
      }
    } catch is TimeLimit.Exceeded {
      running.cancel()
      throw PostgresOutboxErrors.unanswered(within: options.connectTimeout)
    } catch {
      running.cancel()
      throw PostgresOutboxErrors.typed(error, names: names)
    }
    let lease = options.leaseDuration.components
    let store = PostgresOutboxStore(
      client: pool, running: running, names: names, operationLimit: options.operationTimeout,
      leaseSeconds: max(0.3, Double(lease.seconds) + Double(lease.attoseconds) / 1e18), logger: logger)
    self.init(client: client, store: store, configuration: configuration)
  }

  /// An outbox whose items live in PostgreSQL, reached through the service's own `postgres` client, which the service
  /// runs — its `run()` in the service's task group, or the client among ServiceLifecycle's services — and shuts down;
  /// the outbox never runs nor ends it.
  ///
  /// ```swift
  /// let postgres = PostgresClient(configuration: database)
  /// try await withThrowingDiscardingTaskGroup { group in
  ///   group.addTask { await postgres.run() }
  ///   let outbox = try await Outbox(client: api, postgres: postgres)
  ///   await outbox.start()
  ///   // …
  /// }
  /// ```
  ///
  /// Make it once the client runs: opening waits up to ``PostgresOutboxOptions/connectTimeout`` for a connection and
  /// throws `OutboxError.Kind.storeUnreachable` when none comes. The outbox takes connections of the client as it
  /// works — one it keeps to listen for other workers' changes, and up to `maxConcurrentLanes` + 1 more while it
  /// delivers — so size the client's `maximumConnections` for them besides the service's own work. Every statement
  /// it runs is in a transaction that sets its `statement_timeout` and `lock_timeout` for itself (`SET LOCAL`, a fifth
  /// below ``PostgresOutboxOptions/operationTimeout``), leaving the client's sessions as they are: one to three round
  /// trips more per operation than on the outbox's own pool. The sessions must read committed data (`read committed`,
  /// PostgreSQL's default), which opening checks.
  ///
  /// Throws as the initializer that takes a `PostgresClient.Configuration` does, and
  /// `OutboxError.Kind.invalidRequest` when the client's sessions use another isolation level.
  public init(
    client: APIClient, postgres: PostgresClient, options: PostgresOutboxOptions = PostgresOutboxOptions(),
    configuration: Configuration = Configuration()
  ) async throws {
    let names = try PostgresOutboxNames(schema: options.schema, table: options.tableName)
    let logger = options.logger
    do {
      try await TimeLimit.run(options.connectTimeout) {
        try await postgres.withConnection { connection in
          let rows = try await connection.query("SELECT current_setting('transaction_isolation')", logger: logger)
          // PostgreSQL runs `read uncommitted` as `read committed`.
          for try await isolation in rows.decode(String.self)
          where isolation != "read committed" && isolation != "read uncommitted" {
            throw OutboxError(
              .invalidRequest,
              "The outbox on PostgreSQL needs sessions that read committed data, and this client's use "
                + "\(isolation): set default_transaction_isolation to 'read committed' for its role or database")
          }
          try await PostgresOutboxSchema.migrate(names, on: connection, logger: logger)
        }
      }
    } catch is TimeLimit.Exceeded {
      throw OutboxError(
        .storeUnreachable,
        "The PostgreSQL client gave the outbox no connection within \(options.connectTimeout): check that its run() "
          + "is running (in the service's task group or among its services), and its host, port and credentials")
    } catch {
      throw PostgresOutboxErrors.typed(error, names: names)
    }
    let lease = options.leaseDuration.components
    let store = PostgresOutboxStore(
      client: postgres, running: nil, timeoutsPerTransaction: options.statementTimeoutMilliseconds, names: names,
      operationLimit: options.operationTimeout,
      leaseSeconds: max(0.3, Double(lease.seconds) + Double(lease.attoseconds) / 1e18), logger: logger)
    self.init(client: client, store: store, configuration: configuration)
  }

  /// Stores `endpoint`'s request through `connection`, within the service's own transaction: the business change and
  /// the item commit or roll back together. Workers are woken when the transaction commits.
  ///
  /// Only for an outbox stored in PostgreSQL, and a body in memory.
  @discardableResult
  public nonisolated func enqueue<Value>(
    _ endpoint: Endpoint<Value>, lane: String = "default", after: OutboxItem.ID? = nil,
    bindings: [OutboxBinding] = [], kind: Kind = Kind("request"), constraints: OutboxConstraints = .none,
    on connection: PostgresConnection
  ) async throws -> OutboxItem.ID {
    let item = try newItem(
      endpoint, lane: lane, after: after, bindings: bindings, kind: kind, constraints: constraints)
    return try await inPostgres { store in
      try await PostgresOutboxStore.insert(item, names: store.names, on: connection, store.logger)
    }
  }

  /// Stores the requests of `endpoints` through `connection`, within the service's own transaction, in order in
  /// `lane`, in one statement: the business change and the items commit or roll back together. Workers are woken
  /// when the transaction commits. Faster than one enqueue each when a change makes many writes.
  ///
  /// Only for an outbox stored in PostgreSQL, and bodies in memory; one request that cannot be stored refuses them all.
  @discardableResult
  public nonisolated func enqueue<Value>(
    contentsOf endpoints: [Endpoint<Value>], lane: String = "default", kind: Kind = Kind("request"),
    constraints: OutboxConstraints = .none, on connection: PostgresConnection
  ) async throws -> [OutboxItem.ID] {
    let items = try endpoints.map { endpoint in
      try newItem(endpoint, lane: lane, after: nil, bindings: [], kind: kind, constraints: constraints)
    }
    guard !items.isEmpty else { return [] }
    return try await inPostgres { store in
      try await PostgresOutboxStore.insert(items, names: store.names, on: connection, store.logger)
    }
  }

  /// Runs `body` on the outbox's PostgreSQL store, with its errors typed; throws
  /// ``OutboxError/Kind/invalidRequest`` for an outbox stored elsewhere.
  nonisolated func inPostgres<T: Sendable>(
    _ body: (PostgresOutboxStore) async throws -> T
  ) async throws -> T {
    guard let store = store as? PostgresOutboxStore else {
      throw OutboxError(.invalidRequest, "An enqueue on a PostgreSQL connection needs an outbox stored in PostgreSQL")
    }
    do {
      return try await body(store)
    } catch {
      throw PostgresOutboxErrors.typed(error, names: store.names)
    }
  }
}
