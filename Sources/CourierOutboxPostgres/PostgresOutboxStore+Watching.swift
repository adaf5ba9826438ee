import CourierOutbox
import Foundation
import PostgresNIO

// How a worker learns of what other workers did: a `NOTIFY` for an enqueue or a lane given back, and a look every
// third of a lease for leases that ended (a worker that died) while the lanes it holds are renewed.
extension PostgresOutboxStore {
  package func watch(_ wake: @escaping @Sendable () -> Void) -> Task<Void, Never>? {
    Task {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await self.listen(wake) }
        group.addTask { await self.keepLeases(wake) }
      }
    }
  }

  /// Listens on the outbox's channel, on a connection of its own, until cancelled; a lost connection is made again
  /// (PostgreSQL restarted), and the worker woken, as it may have missed notifications meanwhile.
  func listen(_ wake: @escaping @Sendable () -> Void) async {
    while !Task.isCancelled {
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: self.names.channel) { notifications in
            wake()
            for try await _ in notifications { wake() }
          }
        }
      } catch {
        logger.debug("The outbox's LISTEN connection ended: \(error)")
      }
      try? await Task.sleep(for: .seconds(min(1, leaseSeconds / 3)))
      wake()
    }
  }

  /// Renews the leases of the lanes this worker holds, and wakes it to look for leases that ended. A lane whose row is
  /// locked now is being recorded on, which renews its lease anyway: it is skipped, not waited for.
  func keepLeases(_ wake: @escaping @Sendable () -> Void) async {
    while !Task.isCancelled {
      try? await Task.sleep(for: .seconds(leaseSeconds / 3))
      guard !Task.isCancelled else { return }
      let lanes = Array(held.withLockedValue { $0 })
      if !lanes.isEmpty {
        _ = try? await run { connection in
          try await connection.checkedQuery(
            """
            UPDATE \(unescaped: self.names.lane)
            SET lease_until = clock_timestamp() + make_interval(secs => \(self.leaseSeconds))
            WHERE name IN (
              SELECT name FROM \(unescaped: self.names.lane) WHERE holder = \(self.worker) AND name = ANY(\(lanes))
              FOR UPDATE SKIP LOCKED)
            """, logger: self.logger)
        }
      }
      wake()
    }
  }
}
