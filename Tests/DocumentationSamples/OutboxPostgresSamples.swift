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

  /// ServerFleets.md's first sample: the outbox on the service's own client.
  static func enqueue(api: APIClient, postgres: PostgresClient, order: Int, logger: Logger) async throws {
    let outbox = try await Outbox(
      client: api, postgres: postgres, options: PostgresOutboxOptions(schema: "outbox", tableName: "webhooks"))
    await outbox.start()

    try await postgres.withTransaction(logger: logger) { connection in
      try await connection.query("UPDATE orders SET state = 'paid' WHERE id = \(order)", logger: logger)
      try await outbox.enqueue(
        Endpoint<Data>.post("/hooks/paid", body: PaidEvent(order: order)), lane: "order-\(order)", on: connection)
    }
  }

  /// The configuration-based initializer's sample, in its documentation comment.
  static func ownPool(api: APIClient, secret: String, tls: TLSConfiguration) async throws -> Outbox {
    let database = PostgresClient.Configuration(
      host: "db.internal", username: "orders", password: secret, database: "orders", tls: .require(tls))
    return try await Outbox(client: api, postgres: database)
  }
}
