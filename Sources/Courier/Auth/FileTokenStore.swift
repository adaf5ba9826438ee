import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TokenStore {
  /// Keeps credentials in a JSON file at `url` that only its owner can read (mode 0600).
  ///
  /// The file is created on the first save. Every save writes a new file next to the old one and renames it into
  /// place, so a crash never leaves half a token behind. A file that cannot be decoded fails ``TokenStore/load()``
  /// with ``CourierError/Kind-swift.struct/decoding``. Use it for command-line tools and servers; on Apple platforms
  /// prefer `TokenStore.keychain(service:account:accessGroup:accessibility:)`.
  ///
  /// ```swift
  /// let store = TokenStore.file(at: appSupport.appendingPathComponent("credentials.json"))
  /// ```
  public static func file(at url: URL) -> TokenStore {
    let file = FileTokenStore(url: url)
    return TokenStore(
      load: { try await file.load() },
      save: { try await file.save($0) },
      clear: { try await file.clear() })
  }
}

/// The JSON file behind ``TokenStore/file(at:)``; an actor, so one store's reads and writes never interleave.
actor FileTokenStore {
  /// The file the credentials live in.
  let url: URL

  init(url: URL) {
    self.url = url
  }

  /// Reads the credentials; `nil` when the file does not exist.
  func load() throws -> AuthToken? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    do {
      return try JSONDecoder().decode(AuthToken.self, from: Data(contentsOf: url))
    } catch {
      throw CourierError(.decoding, "The token file at \(url.path) could not be read", underlyingError: error)
    }
  }

  /// Writes the credentials atomically with mode 0600.
  func save(_ token: AuthToken) throws {
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
  func clear() throws {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    try FileManager.default.removeItem(at: url)
  }
}
