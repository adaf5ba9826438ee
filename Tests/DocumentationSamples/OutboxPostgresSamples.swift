// The code samples of the PostgreSQL outbox's article, compiled (see CourierTestingSamples.swift).
import Courier
import CourierOutbox
import CourierOutboxPostgres
import Foundation
import Logging
import NIOSSL
import PostgresNIO

enum ServerFleetsSamples {
  struct PaidEvent: Codable, Sendable {
    var order: Int
  }

  /// ServerFleets.md's first sample.
  static func enqueue(
    api: APIClient, postgres: PostgresClient, secret: String, tls: TLSConfiguration, order: Int, logger: Logger
  ) async throws {
    let database = PostgresClient.Configuration(
      host: "db.internal", username: "orders", password: secret, database: "orders", tls: .require(tls))
    let outbox = try await Outbox(
      client: api, postgres: database, options: PostgresOutboxOptions(schema: "outbox", tableName: "webhooks"))
    await outbox.start()

    try await postgres.withTransaction(logger: logger) { connection in
      try await connection.query("UPDATE orders SET state = 'paid' WHERE id = \(order)", logger: logger)
      try await outbox.enqueue(
        Endpoint<Data>.post("/hooks/paid", body: PaidEvent(order: order)), lane: "order-\(order)", on: connection)
    }
  }
}
