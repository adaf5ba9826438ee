#if canImport(Hummingbird)
import Crypto
import NIOCore

/// An incremental SHA-256 over swift-crypto, so uploads and downloads can be hashed chunk by chunk, with the byte
/// count beside it.
@available(macOS 14, iOS 17, tvOS 17, *)
struct SHA256Digest: Sendable {
  private var hash = SHA256()
  /// Bytes hashed so far.
  private(set) var count: Int64 = 0

  /// Creates a hash of no bytes yet.
  init() {}

  /// The digest of `bytes`, as lowercase hex.
  static func hex(of bytes: some Sequence<UInt8>) -> String {
    var hash = SHA256Digest()
    hash.update(Array(bytes))
    return hash.finalizeHex()
  }

  /// Adds the readable bytes of `buffer`.
  mutating func update(_ buffer: ByteBuffer) {
    buffer.withUnsafeReadableBytes { update($0) }
  }

  /// Adds `bytes`.
  mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// Adds `bytes`.
  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    count += Int64(bytes.count)
    hash.update(bufferPointer: bytes)
  }

  /// The digest as lowercase hex; the hash must not be used afterwards.
  func finalizeHex() -> String {
    hash.finalize().map { byte in
      let hex = String(byte, radix: 16)
      return byte < 16 ? "0" + hex : hex
    }.joined()
  }
}
#endif
