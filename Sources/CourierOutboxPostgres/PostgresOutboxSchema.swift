import CourierOutbox
import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// The names of an outbox's tables and channel in PostgreSQL, made from a schema and a table name the app chooses.
struct PostgresOutboxNames: Sendable {
  let schema: String
  let table: String

  /// Checks that both names are plain identifiers (they are written into statements, quoted).
  init(schema: String, table: String) throws {
    for (what, name, longest) in [("schema", schema, 48), ("table name", table, 40)] {
      let valid =
        !name.isEmpty && name.utf8.count <= longest
        && name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
        && !(0x30...0x39).contains(name.utf8.first!)
      guard valid else {
        throw OutboxError(
          .invalidRequest,
          "The outbox's \(what) \"\(name)\" must be 1 to \(longest) lowercase letters, digits and underscores, not "
            + "starting with a digit")
      }
    }
    // The NOTIFY channel, "<schema>.<table>", must be shorter than PostgreSQL's 64-byte identifiers.
    guard schema.utf8.count + table.utf8.count < 63 else {
      throw OutboxError(
        .invalidRequest,
        "The outbox's schema and table name together must be shorter than 62 characters (\"\(schema).\(table)\" names "
          + "its NOTIFY channel)")
    }
    self.schema = schema
    self.table = table
  }

  var item: String { "\"\(schema)\".\"\(table)_item\"" }
  var lane: String { "\"\(schema)\".\"\(table)_lane\"" }
  var version: String { "\"\(schema)\".\"\(table)_version\"" }
  /// The `NOTIFY` channel that wakes the workers.
  var channel: String { "\(schema).\(table)" }
  /// The function that records a run's deliveries (``PostgresOutboxSchema/functions(_:)``).
  var recordDeliveries: String { "\"\(schema)\".\"\(table)_record_deliveries_2\"" }
  /// The function that lists the first waiting item of each lane a worker may take (``PostgresOutboxSchema/functions(_:)``).
  var laneHeads: String { "\"\(schema)\".\"\(table)_lane_heads_1\"" }
  /// The function that claims lanes' first waiting items under their leases (``PostgresOutboxSchema/functions(_:)``).
  var claimHeads: String { "\"\(schema)\".\"\(table)_claim_heads_1\"" }
}

/// The outbox's tables, created and migrated in order; each step runs once, and a database migrated by a newer
/// version of the outbox is refused, not written to.
enum PostgresOutboxSchema {
  /// The statements of each version, in order; version `n` is `migrations[n - 1]`.
  static func migrations(_ names: PostgresOutboxNames) -> [[String]] {
    let prefix = "\"\(names.table)"
    return [
      [
        """
        CREATE TABLE \(names.item) (
          id BIGSERIAL PRIMARY KEY,
          lane TEXT NOT NULL,
          kind TEXT NOT NULL,
          kind_version INTEGER NOT NULL,
          method TEXT NOT NULL,
          target TEXT NOT NULL,
          headers BYTEA NOT NULL,
          body BYTEA,
          body_length BIGINT NOT NULL,
          body_digest TEXT NOT NULL,
          idempotency_key TEXT NOT NULL,
          after_id BIGINT REFERENCES \(names.item)(id),
          if_dependency_fails TEXT NOT NULL,
          allows_expensive BOOLEAN NOT NULL,
          allows_constrained BOOLEAN NOT NULL,
          not_before DOUBLE PRECISION,
          give_up_after DOUBLE PRECISION,
          state TEXT NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          enqueued_at DOUBLE PRECISION NOT NULL,
          next_attempt_at DOUBLE PRECISION NOT NULL,
          updated_at DOUBLE PRECISION NOT NULL,
          reason TEXT,
          response_status INTEGER,
          response_headers BYTEA,
          response_body BYTEA,
          bindings BYTEA,
          result_handled BOOLEAN NOT NULL DEFAULT true,
          held_until DOUBLE PRECISION,
          handed_off_at DOUBLE PRECISION
        )
        """,
        "CREATE INDEX \(prefix)_item_waiting\" ON \(names.item) (lane, id) WHERE state IN ('pending', 'sending')",
        "CREATE INDEX \(prefix)_item_after\" ON \(names.item) (after_id)",
        "CREATE INDEX \(prefix)_item_unhandled\" ON \(names.item) (kind, id) WHERE result_handled = false",
        """
        CREATE TABLE \(names.lane) (
          name TEXT PRIMARY KEY,
          paused_reason TEXT,
          holder TEXT,
          lease_until TIMESTAMPTZ
        )
        """,
      ],
      // The items' times as `timestamptz`, as the lanes' leases are, read as `Date`: version 1 kept them as seconds
      // since 1970 in `DOUBLE PRECISION`. A NaN, which `timestamptz` cannot hold, was an absent time to the outbox (it
      // is neither before nor after any moment). The delivery function of version 1 writes seconds: it goes with them.
      [
        """
        ALTER TABLE \(names.item)
          \(
            Self.times.map { (column, required) -> String in
              let value = required ? "COALESCE(NULLIF(\(column), 'NaN'), 0)" : "NULLIF(\(column), 'NaN')"
              return "ALTER COLUMN \(column) TYPE TIMESTAMPTZ USING to_timestamp(\(value))"
            }.joined(separator: ",\n  "))
        """,
        "DROP FUNCTION IF EXISTS \"\(names.schema)\".\"\(names.table)_record_delivery_3\"",
      ],
    ]
  }

  /// The items' times, and whether each is required (`NOT NULL`).
  static let times = [
    ("not_before", false), ("give_up_after", false), ("enqueued_at", true), ("next_attempt_at", true),
    ("updated_at", true), ("held_until", false), ("handed_off_at", false),
  ]

  /// The functions the store calls, made at an opening that finds them missing, after the tables.
  ///
  /// A delivery's statements run in one function so that PostgreSQL plans them once a session, not once an item (it
  /// plans every statement postgres-nio sends unnamed, and the plans took more of its time than running them), and so
  /// that they take one round trip. The functions are not steps of ``migrations(_:)``: an older worker of a rolling
  /// deploy still opens tables a newer one made functions for, and calls none of them. A function's name ends with
  /// the version of what it does; a change to what it does is a new name, made beside the old one.
  static func functions(_ names: PostgresOutboxNames) -> [(name: String, statement: String)] {
    [
      (names.recordDeliveries, recordDeliveries(names)),
      (names.laneHeads, laneHeads(names)),
      (names.claimHeads, claimHeads(names)),
    ]
  }

  /// Renews and checks the worker's lease on the lane (the fence), and records the deliveries of a run of the lane's
  /// items while it holds the lane's row. Each statement of a function takes its own snapshot: the look for dependants
  /// sees one whose enqueue committed while the update waited for an item's row (the enqueue locks it), as a
  /// statement of its own would. Then, up to `claim_limit`, the lane's next waiting items, marked sending, each with
  /// its dependency's state, unless the lane is paused (read through the waiting items' index in order, not by
  /// aggregates over them); the caller gives back those that may not go at once. One row for each item claimed, or
  /// one whose `head` is null.
  ///
  /// Several deliveries are recorded together only when none of their rows is locked and none has dependants that
  /// bind values from its answer; otherwise nothing is recorded and `needs_transaction` says to record them one at a
  /// time. A call waits for no row while it holds another: of the next items, it claims those before the first that
  /// another transaction holds (a service's open transaction that enqueued a dependant holds its dependency's row, and
  /// may wait for another row this call holds).
  ///
  /// With `alone`, a call for one delivery is a transaction of its own (no `BEGIN` and `COMMIT` around it: one round
  /// trip): an item with dependants that bind values from its answer, which the caller binds in the transaction that
  /// records the delivery, is left as it was and `needs_transaction` says so. Its row is locked before the look, so
  /// that an enqueue of a dependant either committed before it (and is seen) or waits for this call (and binds from
  /// the stored answer). `NO KEY UPDATE`, as the update itself takes: a dependant's insert holds `KEY SHARE` on the
  /// row (its foreign key) until the service's transaction commits, and must not hold the delivery up.
  static func recordDeliveries(_ names: PostgresOutboxNames) -> String {
    """
    CREATE OR REPLACE FUNCTION \(names.recordDeliveries)(
      item_ids BIGINT[], lane_name TEXT, worker TEXT, lease_seconds DOUBLE PRECISION, statuses INTEGER[],
      fields BYTEA[], answers BYTEA[], at TIMESTAMPTZ, claim_limit INTEGER, alone BOOLEAN)
    RETURNS TABLE (
      recorded BOOLEAN, has_dependants BOOLEAN, head \(names.item), dependency TEXT, needs_transaction BOOLEAN)
    LANGUAGE plpgsql AS $body$
    DECLARE
      changed INTEGER;
      claimed BOOLEAN := false;
      claimed_id BIGINT;
    BEGIN
      recorded := false;
      has_dependants := false;
      needs_transaction := false;
      -- A call that claims the next items takes the lane's lease (it was free or ended), as a claim does.
      UPDATE \(names.lane) AS l
      SET holder = CASE WHEN claim_limit > 0 THEN worker ELSE l.holder END,
        lease_until = CASE WHEN l.holder = worker OR claim_limit > 0
          THEN clock_timestamp() + make_interval(secs => lease_seconds) ELSE l.lease_until END
      WHERE l.name = lane_name
        AND (l.holder IS NULL OR l.holder = worker OR l.lease_until < clock_timestamp());
      GET DIAGNOSTICS changed = ROW_COUNT;
      IF changed = 0 THEN
        RETURN NEXT;
        RETURN;
      END IF;
      IF cardinality(item_ids) > 1 THEN
        -- Several items are recorded together only when each row is free now, and none has dependants that bind
        -- values from its answer: a call never waits for a row while it holds another (a service's open transaction
        -- may hold one, and wait for another), and binding is done item by item.
        SELECT count(*) INTO changed FROM (
          SELECT 1 FROM \(names.item) AS i WHERE i.id = ANY(item_ids) FOR NO KEY UPDATE SKIP LOCKED) AS free;
        has_dependants := EXISTS (SELECT 1 FROM \(names.item) AS d
          WHERE d.after_id = ANY(item_ids) AND d.bindings IS NOT NULL AND d.state IN ('pending', 'sending'));
        IF changed < cardinality(item_ids) OR has_dependants THEN
          needs_transaction := true;
          RETURN NEXT;
          RETURN;
        END IF;
      ELSE
        -- The row first, whether or not the call is a transaction of its own: the look for dependants must see one
        -- whose enqueue held the row (its `FOR SHARE`) and committed while this call waited for it.
        PERFORM 1 FROM \(names.item) AS i WHERE i.id = item_ids[1] FOR NO KEY UPDATE;
        has_dependants := EXISTS (SELECT 1 FROM \(names.item) AS d
          WHERE d.after_id = item_ids[1] AND d.bindings IS NOT NULL AND d.state IN ('pending', 'sending'));
        IF alone AND has_dependants THEN
          needs_transaction := true;
          RETURN NEXT;
          RETURN;
        END IF;
      END IF;
      UPDATE \(names.item) AS i SET state = 'delivered', updated_at = at, reason = NULL, response_status = r.status,
        response_headers = r.fields, response_body = r.answer, body = NULL, result_handled = false,
        handed_off_at = NULL
      FROM unnest(item_ids, statuses, fields, answers) AS r(id, status, fields, answer)
      WHERE i.id = r.id AND i.state IN ('pending', 'sending');
      GET DIAGNOSTICS changed = ROW_COUNT;
      recorded := changed > 0;
      IF recorded AND claim_limit > 0
        AND NOT EXISTS (SELECT 1 FROM \(names.lane) AS l WHERE l.name = lane_name AND l.paused_reason IS NOT NULL)
      THEN
        -- One item at a time, each statement planned once a session (a statement over all of them at once was
        -- planned anew for every call).
        FOR claimed_id IN
          SELECT w.id FROM \(names.item) AS w
          WHERE w.lane = lane_name AND w.state IN ('pending', 'sending') ORDER BY w.id LIMIT claim_limit
        LOOP
          -- An item another transaction holds, or one that stopped waiting since the loop began (cancelled), ends the
          -- claim: this call holds the rows it recorded, and waits for none.
          UPDATE \(names.item) AS i SET state = 'sending', attempts = i.attempts + 1
          WHERE i.id = (
            SELECT f.id FROM \(names.item) AS f
            WHERE f.id = claimed_id AND f.state IN ('pending', 'sending') FOR NO KEY UPDATE SKIP LOCKED)
          RETURNING i.* INTO head;
          EXIT WHEN NOT FOUND;
          dependency := NULL;
          -- Only for an item that waits for another: planned for a null after_id, this statement would be planned
          -- anew for every call.
          IF (head).after_id IS NOT NULL THEN
            SELECT d.state INTO dependency FROM \(names.item) AS d WHERE d.id = (head).after_id;
          END IF;
          claimed := true;
          RETURN NEXT;
        END LOOP;
      END IF;
      IF NOT claimed THEN
        RETURN NEXT;
      END IF;
    END
    $body$
    """
  }

  /// The first waiting item of each lane that `worker` may take — not paused, and free, its own, or its lease ended —
  /// with its dependency's state, in an order of the worker's own (so that the workers of a fleet do not all reach
  /// for the same lanes first).
  ///
  /// The lanes with waiting items are found by skipping through the waiting items' index from one lane to the next
  /// (one index descent a lane), not by reading every lane row: a service may use a lane per order, and lanes stay.
  static func laneHeads(_ names: PostgresOutboxNames) -> String {
    """
    CREATE OR REPLACE FUNCTION \(names.laneHeads)(worker TEXT)
    RETURNS TABLE (head \(names.item), dependency TEXT)
    LANGUAGE plpgsql AS $body$
    BEGIN
      RETURN QUERY
      WITH RECURSIVE heads (lane, id) AS (
        (SELECT w.lane, w.id FROM \(names.item) AS w WHERE w.state IN ('pending', 'sending') ORDER BY w.lane, w.id
          LIMIT 1)
        UNION ALL
        SELECT next.lane, next.id FROM heads, LATERAL (
          SELECT w.lane, w.id FROM \(names.item) AS w
          WHERE w.state IN ('pending', 'sending') AND w.lane > heads.lane ORDER BY w.lane, w.id LIMIT 1) next)
      SELECT i, d.state FROM heads
      JOIN \(names.item) AS i ON i.id = heads.id
      JOIN \(names.lane) AS l ON l.name = heads.lane
      LEFT JOIN \(names.item) AS d ON d.id = i.after_id
      WHERE l.paused_reason IS NULL
        AND (l.holder IS NULL OR l.holder = worker OR l.lease_until < clock_timestamp())
      ORDER BY md5(l.name || worker);
    END
    $body$
    """
  }

  /// Marks each of `item_ids` sending, one more attempt, while it is its lane's first waiting item and the lane is
  /// not paused and free, `worker`'s, or its lease ended; takes each such lane's lease for `lease_seconds`. A lane
  /// another worker is claiming or recording right now is skipped, not waited for, and so is an item another
  /// transaction holds (a service's transaction that enqueued a dependant binding values from its answer): a call
  /// waits for no row while it holds another. Returns the items claimed.
  static func claimHeads(_ names: PostgresOutboxNames) -> String {
    """
    CREATE OR REPLACE FUNCTION \(names.claimHeads)(item_ids BIGINT[], worker TEXT, lease_seconds DOUBLE PRECISION)
    RETURNS SETOF \(names.item)
    LANGUAGE plpgsql AS $body$
    BEGIN
      RETURN QUERY
      WITH candidate AS (
        SELECT l.name, i.id FROM \(names.lane) AS l JOIN \(names.item) AS i ON i.lane = l.name
        WHERE i.id = ANY (item_ids) AND i.state IN ('pending', 'sending') AND l.paused_reason IS NULL
          AND (l.holder IS NULL OR l.holder = worker OR l.lease_until < clock_timestamp())
          AND i.id = (SELECT w.id FROM \(names.item) AS w
            WHERE w.lane = l.name AND w.state IN ('pending', 'sending') ORDER BY w.id LIMIT 1)
        FOR UPDATE OF l SKIP LOCKED FOR NO KEY UPDATE OF i SKIP LOCKED),
      leased AS (
        UPDATE \(names.lane) AS l SET holder = worker,
          lease_until = clock_timestamp() + make_interval(secs => lease_seconds)
        FROM candidate WHERE l.name = candidate.name RETURNING l.name),
      claimed AS (
        UPDATE \(names.item) AS i SET state = 'sending', attempts = i.attempts + 1
        FROM candidate WHERE i.id = candidate.id AND candidate.name IN (SELECT name FROM leased)
        RETURNING i.*)
      SELECT * FROM claimed ORDER BY id;
    END
    $body$
    """
  }

  /// Creates or migrates the tables through `connection`, in one transaction that other workers starting at the same
  /// moment wait for.
  static func migrate(_ names: PostgresOutboxNames, on connection: PostgresConnection, logger: Logger) async throws {
    try await connection.withTransaction(logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(names.channel)))", logger: logger)
      var schemaExists = false
      for try await exists in try await connection.query(
        "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = \(names.schema))", logger: logger
      ).decode(Bool.self) {
        schemaExists = exists
      }
      guard schemaExists else {
        throw OutboxError(
          .storeNotFound,
          "The schema \"\(names.schema)\" does not exist in this database: create it (CREATE SCHEMA \(names.schema)) "
            + "or give the outbox one that exists")
      }
      try await connection.query(
        "CREATE TABLE IF NOT EXISTS \(unescaped: names.version) (version INTEGER NOT NULL)", logger: logger)
      var current = 0
      for try await version in try await connection.query(
        "SELECT COALESCE(MAX(version), 0) FROM \(unescaped: names.version)", logger: logger
      ).decode(Int.self) {
        current = version
      }
      let steps = migrations(names)
      guard current <= steps.count else {
        throw OutboxError(
          .newerSchema,
          "The outbox tables \(names.item) were migrated to version \(current) by a newer version of the outbox "
            + "(this one knows \(steps.count)); they are left as they are")
      }
      for version in 1...steps.count where version > current {
        for statement in steps[version - 1] {
          try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        try await connection.query(
          "INSERT INTO \(unescaped: names.version) (version) VALUES (\(version))", logger: logger)
      }
      // Made when missing only: replacing a function another worker is calling would make it compile it again.
      for (name, statement) in functions(names) {
        var missing = true
        for try await exists in try await connection.query(
          "SELECT to_regproc(\(name)) IS NOT NULL", logger: logger
        ).decode(Bool.self) {
          missing = !exists
        }
        if missing { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
      }
    }
  }
}

/// How PostgreSQL's failures become the outbox's typed errors, each naming what to fix.
enum PostgresOutboxErrors {
  /// No answer within `limit`.
  static func unanswered(within limit: Duration) -> OutboxError {
    OutboxError(
      .storeUnreachable,
      "PostgreSQL did not answer within \(limit): check the host, port or socket in the configuration, and that the "
        + "server is running")
  }

  /// Connects once, directly, with `configuration`'s address and credentials, and returns the typed error of what
  /// went wrong, or `nil` when that connection was made: the pool keeps retrying without saying why.
  static func diagnose(
    _ configuration: PostgresClient.Configuration, names: PostgresOutboxNames, within limit: Duration, logger: Logger
  ) async -> OutboxError? {
    let unanswered = unanswered(within: limit)
    var direct: PostgresConnection.Configuration
    if let path = configuration.unixSocketPath {
      direct = .init(
        unixSocketPath: path, username: configuration.username, password: configuration.password,
        database: configuration.database)
    } else if let host = configuration.host, let port = configuration.port {
      // TLS when the server offers it, as the pool's own configuration may ask.
      let tls: PostgresConnection.Configuration.TLS
      do {
        tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
      } catch {
        return unanswered
      }
      direct = .init(
        host: host, port: port, username: configuration.username, password: configuration.password,
        database: configuration.database, tls: tls)
    } else {
      return unanswered
    }
    // The whole time the diagnosis has, not PostgresNIO's default of 10 s: a slow server is not an unreachable one.
    let (seconds, attoseconds) = limit.components
    direct.options.connectTimeout = .nanoseconds(max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    let configured = direct
    do {
      let connection = try await TimeLimit.run(limit) {
        try await PostgresConnection.connect(configuration: configured, id: 1, logger: logger)
      }
      try? await connection.close()
      return nil
    } catch is TimeLimit.Exceeded {
      return unanswered
    } catch {
      return typed(error, names: names)
    }
  }

  static func typed(_ error: any Error, names: PostgresOutboxNames) -> OutboxError {
    if let error = error as? OutboxError { return error }
    if let error = error as? PostgresTransactionError {
      if let inner = error.closureError ?? error.beginError ?? error.commitError {
        return typed(inner, names: names)
      }
    }
    guard let error = error as? PSQLError else {
      if "\(error)".contains("CircuitBreaker") {
        return OutboxError(
          .storeUnreachable,
          "No connection to PostgreSQL could be made (\(error)): check the host, port or socket in the configuration, "
            + "and that the server is running")
      }
      return OutboxError(.storeFailure, "The outbox's PostgreSQL store failed: \(error)")
    }
    let server = error.serverInfo
    let message = server?[.message] ?? "\(error.code)"
    switch error.code {
    case .server:
      switch server?[.sqlState] ?? "" {
      case "28P01", "28000":
        return OutboxError(
          .storeAccessDenied,
          "PostgreSQL refused the credentials (\(message)): check the user name and password in the PostgresClient's "
            + "configuration")
      case "42501":
        return OutboxError(
          .storeAccessDenied,
          "PostgreSQL refused the outbox access to \(names.item) (\(message)): grant the user rights on the schema "
            + "\"\(names.schema)\"")
      case "3D000":
        return OutboxError(
          .storeNotFound,
          "\(message): create the database, or name one that exists in the PostgresClient's configuration")
      case "3F000":
        return OutboxError(
          .storeNotFound,
          "The schema \"\(names.schema)\" does not exist (\(message)): create it (CREATE SCHEMA \(names.schema)) or "
            + "give the outbox one that exists")
      case "57P01", "57P02", "57P03", "08000", "08003", "08006", "53300":
        return OutboxError(.storeUnreachable, "PostgreSQL is not accepting connections now (\(message))")
      default:
        return OutboxError(.storeFailure, "PostgreSQL failed for the outbox at \(names.item): \(message)")
      }
    case .connectionError, .serverClosedConnection, .uncleanShutdown, .poolClosed:
      let cause = error.underlying.map { " (\($0))" } ?? ""
      return OutboxError(
        .storeUnreachable,
        "No connection to PostgreSQL\(cause): check the host, port or socket in the configuration, and that the server "
          + "is running")
    default:
      return OutboxError(.storeFailure, "PostgreSQL failed for the outbox at \(names.item): \(error)")
    }
  }
}
