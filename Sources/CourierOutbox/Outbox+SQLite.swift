#if SQLiteOutbox
import Courier
import Foundation
import GRDB

// The outbox on SQLite, through GRDB: in a file of its own, or in the app's own database. Built with the package's
// `SQLiteOutbox` trait, on by default; a service whose outbox is in PostgreSQL may turn it off, and GRDB is not built.
extension Outbox {
  /// An outbox whose items live in a SQLite database at `path` (made if missing), sent through `client`.
  ///
  /// Throws ``OutboxError/Kind/corruptStore`` when the file is not a database or is damaged, and
  /// ``OutboxError/Kind/newerSchema`` when a newer version of the outbox wrote it; the file is left as it is.
  public init(client: APIClient, path: String, configuration: Configuration = Configuration()) throws {
    try self.init(client: client, configuration: configuration) { try SQLiteOutboxStore(path: path) }
  }

  /// An outbox whose tables live in the app's own database, so that
  /// ``enqueue(_:lane:after:bindings:kind:constraints:in:)`` joins the app's write.
  public init(client: APIClient, database: any DatabaseWriter, configuration: Configuration = Configuration()) throws {
    try self.init(client: client, configuration: configuration) { try SQLiteOutboxStore(database: database) }
  }

  /// An outbox on the SQLite store `open` opens, once the configuration's background uploads were checked, with the
  /// background session's uploader when it has one.
  init(client: APIClient, configuration: Configuration, store open: () throws -> SQLiteOutboxStore) throws {
    try Self.checkBackgroundUploads(configuration, client: client)
    let store = try open()
    let uploader = try Self.sessionUploader(configuration, client: client, store: store)
    self.init(client: client, store: store, configuration: configuration, uploader: uploader)
    if let uploader, let identifier = configuration.backgroundSessionIdentifier {
      try uploader.attach(self, identifier: identifier)
    }
  }

  /// Stores `endpoint`'s request in `db`, within the app's own write: the app's change and the item commit or roll
  /// back together. Only for an outbox made with ``init(client:database:configuration:)`` on the same database, and
  /// a body in memory. Call ``drain()`` after the transaction committed to send at once.
  @discardableResult
  public nonisolated func enqueue<Value>(
    _ endpoint: Endpoint<Value>, lane: String = "default", after: OutboxItem.ID? = nil,
    bindings: [OutboxBinding] = [], kind: Kind = Kind("request"), constraints: OutboxConstraints = .none,
    in db: Database
  ) throws -> OutboxItem.ID {
    let item = try newItem(
      endpoint, lane: lane, after: after, bindings: bindings, kind: kind, constraints: constraints)
    return try SQLiteOutboxStore.insert(item, in: db)
  }
}
#endif
