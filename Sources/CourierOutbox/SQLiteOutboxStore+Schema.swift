#if SQLiteOutbox
import Foundation
import GRDB
import HTTPTypes

// The SQLite store's tables: their migrations, and the refusal of a database a newer version wrote.
extension SQLiteOutboxStore {
  /// Throws ``OutboxError/Kind/newerSchema`` when a newer version of the outbox migrated `db`.
  static func checkNotSuperseded(_ db: Database, path: String?) throws {
    guard try migrator.hasBeenSuperseded(db) else { return }
    throw OutboxError(
      .newerSchema,
      "The outbox database\(path.map { " at \($0)" } ?? "") was written by a newer version of the outbox "
        + "(migrations \(try migrator.appliedIdentifiers(db).sorted())); it is left as it is")
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("courier-outbox-1") { db in
      try db.execute(
        sql: """
          CREATE TABLE courier_outbox_item (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            lane TEXT NOT NULL,
            kind TEXT NOT NULL,
            kind_version INTEGER NOT NULL,
            method TEXT NOT NULL,
            target TEXT NOT NULL,
            headers BLOB NOT NULL,
            body BLOB,
            body_length INTEGER NOT NULL,
            body_digest TEXT NOT NULL,
            idempotency_key TEXT NOT NULL,
            after_id INTEGER REFERENCES courier_outbox_item(id),
            if_dependency_fails TEXT NOT NULL,
            allows_expensive INTEGER NOT NULL,
            allows_constrained INTEGER NOT NULL,
            not_before REAL,
            give_up_after REAL,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            enqueued_at REAL NOT NULL,
            next_attempt_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            reason TEXT,
            response_status INTEGER,
            response_headers BLOB,
            response_body BLOB
          );
          CREATE INDEX courier_outbox_item_waiting ON courier_outbox_item(lane, id)
            WHERE state IN ('pending', 'sending');
          CREATE INDEX courier_outbox_item_after ON courier_outbox_item(after_id);
          CREATE TABLE courier_outbox_lane (
            name TEXT PRIMARY KEY,
            paused_reason TEXT
          );
          """)
    }
    migrator.registerMigration("courier-outbox-2") { db in
      // Values bound from an earlier item's answer; whether a handler took a final result (results recorded before
      // handlers existed count as taken).
      try db.execute(
        sql: """
          ALTER TABLE courier_outbox_item ADD COLUMN bindings BLOB;
          ALTER TABLE courier_outbox_item ADD COLUMN result_handled INTEGER NOT NULL DEFAULT 1;
          ALTER TABLE courier_outbox_item ADD COLUMN held_until REAL;
          CREATE INDEX courier_outbox_item_unhandled ON courier_outbox_item(kind, id) WHERE result_handled = 0;
          """)
    }
    migrator.registerMigration("courier-outbox-3") { db in
      // A body kept in a file beside the database instead of the row. Header fields are written as lines from this
      // version on (JSON arrays are still read), which a version before it could not read.
      try db.execute(sql: "ALTER TABLE courier_outbox_item ADD COLUMN body_file TEXT")
      // When the item was handed to a background upload whose outcome has not been recorded.
      try db.execute(sql: "ALTER TABLE courier_outbox_item ADD COLUMN handed_off_at REAL")
    }
    migrator.registerMigration("courier-outbox-4") { db in
      // The waiting items' count and body bytes, kept by triggers in the transaction of every change: reading them
      // is one row, where counting them read every waiting row (an outbox reads them after every run it delivers).
      try db.execute(
        sql: """
          CREATE TABLE courier_outbox_totals (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            waiting INTEGER NOT NULL,
            bytes INTEGER NOT NULL
          );
          INSERT INTO courier_outbox_totals (id, waiting, bytes)
            SELECT 1, COUNT(*), COALESCE(SUM(body_length), 0) FROM courier_outbox_item
            WHERE state IN ('pending', 'sending');
          CREATE TRIGGER courier_outbox_totals_insert AFTER INSERT ON courier_outbox_item
            WHEN NEW.state IN ('pending', 'sending')
          BEGIN
            UPDATE courier_outbox_totals SET waiting = waiting + 1, bytes = bytes + NEW.body_length;
          END;
          CREATE TRIGGER courier_outbox_totals_delete AFTER DELETE ON courier_outbox_item
            WHEN OLD.state IN ('pending', 'sending')
          BEGIN
            UPDATE courier_outbox_totals SET waiting = waiting - 1, bytes = bytes - OLD.body_length;
          END;
          CREATE TRIGGER courier_outbox_totals_update AFTER UPDATE OF state, body_length ON courier_outbox_item
            WHEN (OLD.state IN ('pending', 'sending')) != (NEW.state IN ('pending', 'sending'))
              OR (NEW.state IN ('pending', 'sending') AND OLD.body_length != NEW.body_length)
          BEGIN
            UPDATE courier_outbox_totals SET
              waiting = waiting - (OLD.state IN ('pending', 'sending')) + (NEW.state IN ('pending', 'sending')),
              bytes = bytes - (CASE WHEN OLD.state IN ('pending', 'sending') THEN OLD.body_length ELSE 0 END)
                + (CASE WHEN NEW.state IN ('pending', 'sending') THEN NEW.body_length ELSE 0 END);
          END;
          """)
    }
    return migrator
  }
}
#endif
