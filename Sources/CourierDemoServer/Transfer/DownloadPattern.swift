#if canImport(Hummingbird)
import NIOCore

/// The deterministic content of `/download/{bytes}`: byte `i` is `UInt8(truncatingIfNeeded: i &* 31 &+ 7)`.
///
/// The pattern repeats every 256 bytes, so every chunk is a slice of one shared table of ``chunkSize`` + 256 bytes:
/// bodies of any size (up to 8 GiB) are produced without copying and without ever being held whole.
@available(macOS 14, iOS 17, tvOS 17, *)
enum DownloadPattern {
  /// The largest chunk written at once.
  static let chunkSize = 64 * 1024
  /// The largest body `/download/{bytes}` serves: 8 GiB.
  static let maxLength: Int64 = 8 << 30

  /// The pattern from offset 0, one period longer than a chunk.
  private static let table: ByteBuffer = {
    var buffer = ByteBuffer()
    buffer.writeBytes((0..<(chunkSize + 256)).map { byte(at: Int64($0)) })
    return buffer
  }()

  /// Byte `index` of every download body.
  static func byte(at index: Int64) -> UInt8 {
    UInt8(truncatingIfNeeded: index &* 31 &+ 7)
  }

  /// Bytes `offset ..< offset + count` of the pattern (`count` at most ``chunkSize``), sharing the table's storage.
  static func chunk(at offset: Int64, count: Int) -> ByteBuffer {
    precondition((0...chunkSize).contains(count), "chunk larger than the pattern table")
    return table.getSlice(at: Int(offset & 0xFF), length: count)!
  }

  /// The SHA-256 of the first `length` bytes, hashed chunk by chunk (yielding between chunks: it takes a while).
  static func sha256(length: Int64) async -> String {
    var hash = SHA256Digest()
    var offset: Int64 = 0
    while offset < length {
      let count = Int(min(Int64(chunkSize), length - offset))
      hash.update(chunk(at: offset, count: count))
      offset += Int64(count)
      await Task.yield()
    }
    return hash.finalizeHex()
  }
}
#endif
