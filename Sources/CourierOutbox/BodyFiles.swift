import Courier
import Crypto
import Foundation

/// Bodies above a size, kept in files in a folder beside the outbox's database instead of in its rows: a photo or a
/// video waits in the outbox without growing the database or passing through memory.
///
/// A file is written under a temporary name, synced, and renamed before the item's row commits, so a committed item
/// always finds its body whole; a crash before the commit leaves a file no row names, which ``sweep(_:keeping:except:)``
/// removes once it is older than ``uncommittedGrace``. Once its row commits, a file is marked as such
/// (``markCommitted(_:)``); it is removed once its item was delivered, and swept once it is cancelled.
struct BodyFiles: Sendable {
  /// The folder, made when the first body is written.
  let folder: URL
  /// Bodies longer than this many bytes, or of unknown length, go to a file.
  let threshold: Int

  /// Whether `body` goes to a file.
  func takes(_ body: BodyStream) -> Bool {
    (body.length ?? .max) > Int64(threshold)
  }

  /// Where the body named `name` is.
  func url(of name: String) -> URL {
    folder.appendingPathComponent(name, isDirectory: false)
  }

  /// Writes `body` to a new file named after `key`, reading it a chunk at a time; returns the file's name, the body's
  /// length and its digest. The file is whole and synced when this returns.
  func write(_ body: BodyStream, key: String) async throws -> (name: String, length: Int, digest: String) {
    let name = key + ".body"
    let partial = url(of: key + ".partial")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      // Made in place, not through a temporary file and a rename: a sweep of the folder meanwhile would remove the
      // temporary file, which no row names.
      do {
        try Data().write(to: partial, options: .withoutOverwriting)
      } catch {
        throw OutboxError(.storeFailure, "The outbox could not make a file in \(folder.path) for a body: \(error)")
      }
      let handle = try FileHandle(forWritingTo: partial)
      var hasher = SHA256()
      var length = 0
      do {
        for try await chunk in body {
          try handle.write(contentsOf: chunk)
          hasher.update(data: chunk)
          length += chunk.count
        }
        try handle.synchronize()
        try handle.close()
      } catch {
        try? handle.close()
        throw error
      }
      let final = url(of: name)
      try? FileManager.default.removeItem(at: final)
      try FileManager.default.moveItem(at: partial, to: final)
      return (name, length, Data(hasher.finalize()).base64EncodedString())
    } catch {
      try? FileManager.default.removeItem(at: partial)
      if let error = error as? OutboxError { throw error }
      if let error = error as? CourierError {
        throw OutboxError(.invalidRequest, "The body could not be read: \(error)")
      }
      throw OutboxError(.storeFailure, "The outbox could not keep a body in \(folder.path): \(error)")
    }
  }

  /// Removes the body named `name`, if it is there.
  func remove(_ name: String) {
    try? FileManager.default.removeItem(at: url(of: name))
  }

  /// Marks the body named `name` as named by a committed row: its modification date goes back to 1970, so that once
  /// no row names it (its item delivered, cancelled or edited) a sweep in any process removes it at once, not after
  /// ``uncommittedGrace``.
  func markCommitted(_ name: String) {
    try? FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: url(of: name).path)
  }

  /// The names of the files in the folder.
  func names() -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
  }

  /// How long a body file no row names is kept after it was last written: another process sharing the database (an app
  /// and its extension, in an app group) may be writing it, or have renamed it whole and not yet committed its row.
  /// Longer than any enqueue.
  static let uncommittedGrace: TimeInterval = 3600

  /// Removes the body files of `names` (`.body` and `.partial`) but those in `referenced`, those of a key in
  /// `writing` (bodies being written here, whose rows have not committed yet), and those written within
  /// ``uncommittedGrace`` of `now` (perhaps by another process, whose row has not committed yet: a rename keeps the
  /// file's modification date, so a body renamed whole is kept as long as its partial file was).
  func sweep(_ names: [String], keeping referenced: Set<String>, except writing: Set<String>, now: Date = Date()) {
    for name in names where !referenced.contains(name) && (name.hasSuffix(".body") || name.hasSuffix(".partial")) {
      let key = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
      guard !writing.contains(key) else { continue }
      if let changed = (try? FileManager.default.attributesOfItem(atPath: url(of: name).path))?[.modificationDate]
        as? Date,
        now.timeIntervalSince(changed) < Self.uncommittedGrace
      {
        continue
      }
      remove(name)
    }
  }
}
