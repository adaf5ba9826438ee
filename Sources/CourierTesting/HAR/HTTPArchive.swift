import Courier
import Foundation

/// An HTTP Archive (HAR 1.2): the JSON format browsers' developer tools and proxies use to save traffic.
///
/// ``HARRecordingInterceptor`` writes one from real calls, with secrets redacted; ``HARReplayTransport`` answers
/// from one. Open a recording in a browser's network panel or a proxy to look at it, or edit it by hand: it is
/// plain JSON.
///
/// ```swift
/// let archive = try HTTPArchive(contentsOf: fixtureURL)
/// for entry in archive.log.entries {
///   print(entry.request.method, entry.request.url, entry.response.status)
/// }
/// ```
public struct HTTPArchive: Codable, Sendable, Equatable {
  /// The one root object.
  public var log: Log

  /// Creates an archive around `log`.
  public init(log: Log = Log()) {
    self.log = log
  }

  /// Reads an archive from a `.har` file.
  ///
  /// - Throws: `CourierError` of kind `decoding` when the file is not a HAR document, or the file
  ///   system's error.
  public init(contentsOf url: URL) throws {
    let data = try Data(contentsOf: url)
    self = try Self.decode(data)
  }

  /// Decodes an archive from HAR JSON.
  public static func decode(_ data: Data) throws -> HTTPArchive {
    do {
      return try JSONDecoder().decode(HTTPArchive.self, from: data)
    } catch {
      throw CourierError(.decoding, "The data is not a HAR 1.2 document: \(error)", underlyingError: error)
    }
  }

  /// The archive as pretty-printed JSON with sorted keys, so recordings diff well in version control.
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// Writes the archive to `url` atomically, creating the folder when needed.
  public func write(to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try jsonData().write(to: url, options: .atomic)
  }
}

extension HTTPArchive {
  /// The root of the archive's data: the format version, the program that wrote it, and the exchanges.
  public struct Log: Codable, Sendable, Equatable {
    /// The format version, `1.2`.
    public var version: String
    /// The program that wrote the archive.
    public var creator: Creator
    /// The browser, when a browser wrote the archive; Courier leaves it out.
    public var browser: Creator?
    /// The exchanges, in the order they finished.
    public var entries: [Entry]
    /// A free-form comment.
    public var comment: String?

    /// Creates a log; by default an empty version 1.2 log written by Courier.
    public init(version: String = "1.2", creator: Creator = .courier, entries: [Entry] = [], comment: String? = nil) {
      self.version = version
      self.creator = creator
      self.entries = entries
      self.comment = comment
    }
  }

  /// The name and version of the program (or browser) that wrote an archive.
  public struct Creator: Codable, Sendable, Equatable {
    /// The name, e.g. `Courier`.
    public var name: String
    /// The version.
    public var version: String
    /// A free-form comment.
    public var comment: String?

    /// Creates a creator.
    public init(name: String, version: String, comment: String? = nil) {
      self.name = name
      self.version = version
      self.comment = comment
    }

    /// Courier's CourierTesting module.
    public static let courier = Creator(name: "Courier", version: "1.0")
  }
}
