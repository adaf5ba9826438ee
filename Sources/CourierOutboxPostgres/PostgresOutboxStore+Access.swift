import CourierOutbox
import Foundation
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

// How the store reaches PostgreSQL: a connection of the pool or a transaction, each operation under a time limit,
// with its errors typed.
extension PostgresOutboxStore {
  /// Runs `body` on a connection of the pool, with the store's errors typed. On the service's own client, whose
  /// sessions have no limits of the store's, it runs in a transaction that sets them (see ``transaction(_:)``), so
  /// that no statement outlives the operation: a claim given up at the limit never commits later.
  func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
    if timeoutsPerTransaction != nil { return try await transaction(body) }
    return try await guarded { try await self.client.withConnection { connection in try await body(connection) } }
  }

  /// Runs `body` in a transaction, with the store's errors typed. A transaction PostgreSQL chose to end for a
  /// deadlock with another worker's (40P01) or a serialization failure (40001) rolled back whole, so it runs again,
  /// up to three times in all, as PostgreSQL's documentation advises.
  func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
    try await guarded {
      var attempt = 1
      while true {
        do {
          return try await self.client.withTransaction(logger: self.logger) { connection in
            if let milliseconds = self.timeoutsPerTransaction {
              // The service's own sessions are left as they are: the limits hold for this transaction alone.
              try await connection.checkedQuery(
                """
                SELECT set_config('statement_timeout', \("\(milliseconds)ms"), true),
                  set_config('lock_timeout', \("\(milliseconds)ms"), true)
                """, logger: self.logger)
            }
            return try await body(connection)
          }
        } catch  where attempt < 3 && Self.mayRunAgain(error) {
          self.logger.debug("The outbox's transaction ran again after \(error)")
          attempt += 1
        }
      }
    }
  }

  /// Whether `error` ended a transaction that PostgreSQL rolled back whole for a conflict with another one.
  static func mayRunAgain(_ error: any Error) -> Bool {
    var error = error
    if let transaction = error as? PostgresTransactionError {
      guard let inner = transaction.closureError ?? transaction.commitError else { return false }
      error = inner
    }
    guard let error = error as? PSQLError, error.code == .server else { return false }
    return ["40P01", "40001"].contains(error.serverInfo?[.sqlState] ?? "")
  }

  /// Runs `work` with the store's errors typed, giving up after ``operationLimit``.
  ///
  /// PostgresNIO 1.33 can leave a query unanswered forever when its connection closes as it is written (the server
  /// restarted; vapor/postgres-nio#487, reverted in #501). An operation that takes that long throws
  /// `OutboxError.Kind.storeUnreachable` instead of holding its lane forever: what it was recording is recorded
  /// again, or the item sent again with its key. The stuck query is left to its connection.
  func guarded<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
    do {
      // A wait for one of the pool's connections ends with the cancellation at the limit; a statement ends earlier,
      // by the statement_timeout of the session (the store's own pool) or of the transaction (the service's client).
      return try await TimeLimit.run(operationLimit, work)
    } catch is TimeLimit.Exceeded {
      throw OutboxError(
        .storeUnreachable, "PostgreSQL did not finish an operation of the outbox within \(operationLimit)")
    } catch {
      throw PostgresOutboxErrors.typed(error, names: names)
    }
  }

  /// Runs `query` and returns how many rows it returned (a statement that changes rows says `RETURNING 1`).
  func changes(_ query: PostgresQuery) async throws -> Int {
    try await run { connection in
      var count = 0
      for try await _ in try await connection.checkedQuery(query, logger: self.logger) { count += 1 }
      return count
    }
  }

  func items(_ query: PostgresQuery) async throws -> [OutboxItem] {
    try await run { connection in
      var items: [OutboxItem] = []
      for try await row in try await connection.checkedQuery(query, logger: self.logger) {
        items.append(try Self.item(row))
      }
      return items
    }
  }
}

extension PostgresConnection {
  /// `query(_:logger:)`, refused at once on a connection that has closed: PostgresNIO 1.33 could leave a query written
  /// to it unanswered (see ``PostgresOutboxStore/guarded(_:)``).
  @discardableResult
  func checkedQuery(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
    guard !isClosed else { throw OutboxError(.storeUnreachable, "The connection to PostgreSQL closed") }
    return try await self.query(query, logger: logger)
  }
}

/// Work with a time limit that does not wait for the work to end: a statement the server never answers must not hold
/// its caller.
enum TimeLimit {
  struct Exceeded: Error {}

  /// Runs `body`, or throws ``Exceeded`` after `limit` and cancels it.
  static func run<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    guard limit > .zero else { throw Exceeded() }
    return try await withCheckedThrowingContinuation { continuation in
      let settled = NIOLockedValueBox(false)
      let settle: @Sendable (Result<T, any Error>) -> Void = { result in
        let first = settled.withLockedValue { done in
          defer { done = true }
          return !done
        }
        if first { continuation.resume(with: result) }
      }
      let timer = NIOLockedValueBox<Task<Void, Never>?>(nil)
      let running = Task {
        do {
          let value = try await body()
          timer.withLockedValue { $0?.cancel() }
          settle(.success(value))
        } catch {
          timer.withLockedValue { $0?.cancel() }
          settle(.failure(error))
        }
      }
      timer.withLockedValue {
        $0 = Task {
          try? await Task.sleep(for: limit)
          guard !Task.isCancelled else { return }
          running.cancel()
          settle(.failure(Exceeded()))
        }
      }
    }
  }
}
