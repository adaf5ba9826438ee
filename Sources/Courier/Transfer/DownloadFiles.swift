import Crypto
import Foundation
import HTTPTypes

/// The files of one download: the partial file (`<destination>.part`), what is needed to resume it
/// (`<destination>.part.json`) and the destination it is moved to.
final class DownloadFiles {
  let destination: URL
  let partial: URL
  let state: URL
  /// The URL downloaded, to tell whether a partial file belongs to this download.
  let url: String
  /// The whole file's length, once a response said it.
  private(set) var total: Int64?
  /// Whether the current partial file can be resumed (the server sent a validator).
  private(set) var hasValidator = false

  /// Checks the destination and creates the partial file, so problems surface before anything is sent.
  init(destination: URL, url: String, replacesExistingFile: Bool) throws {
    self.destination = destination
    partial = URL(fileURLWithPath: destination.path + ".part")
    state = URL(fileURLWithPath: destination.path + ".part.json")
    self.url = url
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
      guard !isDirectory.boolValue else {
        throw CourierError(.fileSystem, "The download destination \(destination.path) is a directory")
      }
      guard replacesExistingFile else {
        throw CourierError(.fileSystem, "A file already exists at \(destination.path)")
      }
    }
    if !FileManager.default.fileExists(atPath: partial.path) {
      guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
        throw CourierError(.fileSystem, "The file \(partial.path) could not be created")
      }
    }
  }

  /// The partial file's length and saved state, when it belongs to this URL and has a validator to resume with.
  func resumablePartial() -> (bytes: Int64, state: PartialDownload)? {
    guard let data = try? Data(contentsOf: state),
      let saved = try? JSONDecoder().decode(PartialDownload.self, from: data), saved.url == url,
      let attributes = try? FileManager.default.attributesOfItem(atPath: partial.path),
      let size = (attributes[.size] as? NSNumber)?.int64Value
    else { return nil }
    if let total = saved.total, size > total { return nil }
    hasValidator = true
    total = saved.total
    return (size, saved)
  }

  /// Empties the partial file and forgets its validator.
  func discardPartial() throws {
    try? FileManager.default.removeItem(at: state)
    hasValidator = false
    total = nil
    guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
      throw CourierError(.fileSystem, "The file \(partial.path) could not be emptied")
    }
  }

  /// Deletes the partial file and its state: the download cannot be resumed.
  func remove() {
    try? FileManager.default.removeItem(at: partial)
    try? FileManager.default.removeItem(at: state)
    hasValidator = false
  }

  /// Saves the validator of `response` (a strong `ETag`, else `Last-Modified`) so the download can be resumed.
  func remember(_ response: HTTPResponse, total: Int64?) throws {
    self.total = total
    let etag = response.headerFields[.eTag].flatMap { $0.hasPrefix("W/") ? nil : $0 }
    guard let validator = etag ?? response.headerFields[.lastModified] else {
      try? FileManager.default.removeItem(at: state)
      hasValidator = false
      return
    }
    let saved = PartialDownload(url: url, validator: validator, total: total)
    do {
      try JSONEncoder().encode(saved).write(to: state, options: .atomic)
      hasValidator = true
    } catch {
      throw CourierError(.fileSystem, "The download state \(state.path) could not be written", underlyingError: error)
    }
  }

  /// Writes `body` into the partial file from `offset`, dropping anything after it first.
  func write(_ body: BodyStream, from offset: Int64, progress: ProgressReporter?) async throws {
    let handle: FileHandle
    do {
      handle = try FileHandle(forWritingTo: partial)
      try handle.truncate(atOffset: UInt64(offset))
      try handle.seek(toOffset: UInt64(offset))
    } catch {
      throw CourierError(.fileSystem, "The file \(partial.path) could not be opened", underlyingError: error)
    }
    defer { try? handle.close() }
    for try await chunk in body {
      do {
        try handle.write(contentsOf: chunk)
      } catch {
        throw CourierError(.fileSystem, "The file \(partial.path) could not be written", underlyingError: error)
      }
      progress?.advance(by: chunk.count)
    }
  }

  /// The partial file's length, checked against the expected total.
  func finish(expectedTotal: Int64?) throws -> Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: partial.path)
    let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    if let expectedTotal, size != expectedTotal {
      throw CourierError(.integrity, "The download has \(size) bytes, not the \(expectedTotal) the server announced")
    }
    return size
  }

  /// The SHA-256 of the partial file, read a megabyte at a time, as lowercase hexadecimal.
  func sha256() throws -> String {
    do {
      let handle = try FileHandle(forReadingFrom: partial)
      defer { try? handle.close() }
      var hasher = SHA256()
      while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        hasher.update(data: chunk)
      }
      return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    } catch {
      throw CourierError(.fileSystem, "The file \(partial.path) could not be read", underlyingError: error)
    }
  }

  /// Moves the finished file over the destination in one step (`rename`), then forgets the resume state.
  func moveIntoPlace() throws {
    guard rename(partial.path, destination.path) == 0 else {
      let reason = String(cString: strerror(errno))
      throw CourierError(.fileSystem, "The download could not be moved to \(destination.path): \(reason)")
    }
    try? FileManager.default.removeItem(at: state)
  }
}
