import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps credentials in a JSON file that only its owner can read (mode 0600).
///
/// Every save writes a new file next to the old one and renames it into place, so a crash never leaves half a token
/// behind. Use it for command-line tools and servers; on Apple platforms prefer `KeychainTokenStore`.
///
/// ```swift
/// let store = FileTokenStore(url: appSupport.appendingPathComponent("credentials.json"))
/// ```
public actor FileTokenStore: TokenStore {
  /// The file the credentials live in.
  public let url: URL

  /// Creates a store at `url`; the file is created on the first save.
  public init(url: URL) {
    self.url = url
  }

  /// Reads the credentials; `nil` when the file does not exist.
  public func load() throws -> AuthToken? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    do {
      return try JSONDecoder().decode(AuthToken.self, from: Data(contentsOf: url))
    } catch {
      throw CourierError(.decoding, "The token file at \(url.path) could not be read", underlyingError: error)
    }
  }

  /// Writes the credentials atomically with mode 0600.
  public func save(_ token: AuthToken) throws {
    let data = try JSONEncoder().encode(token)
    let directory = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    guard
      FileManager.default.createFile(
        atPath: temporary.path, contents: data, attributes: [.posixPermissions: NSNumber(value: 0o600)])
    else {
      throw CourierError(.transport, "The token file could not be written in \(directory.path)")
    }
    guard rename(temporary.path, url.path) == 0 else {
      let code = errno
      try? FileManager.default.removeItem(at: temporary)
      throw CourierError(.transport, "The token file could not be moved into place (errno \(code))")
    }
  }

  /// Deletes the file.
  public func clear() throws {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    try FileManager.default.removeItem(at: url)
  }
}
