// The code samples of the outbox's articles, compiled (see CourierTestingSamples.swift).
import Courier
import CourierOutbox
import Foundation

enum OfflineWritesSamples {
  /// A post written offline.
  struct Post: Codable, Sendable {
    var title: String
  }

  /// OfflineWrites.md's first sample.
  static func enqueue(client: APIClient, databasePath: String, draft: Post) async throws {
    let outbox = try Outbox(client: client, path: databasePath)
    let id = try await outbox.enqueue(Endpoint<Post>.post("/posts", body: draft), lane: "posts")
    let waiting = try await outbox.pendingCount()  // "3 changes waiting"
    _ = (id, waiting)
  }
}
