#if canImport(Hummingbird)
import NIOCore

/// One `multipart/form-data` part while its body streams in: the size, the SHA-256 and, for a plain field, the first
/// KiB, so no part is ever held whole.
@available(macOS 14, iOS 17, tvOS 17, *)
struct PartDigest {
  /// The longest plain-field body reported as text in ``UploadedPart/value``.
  static let maxValueBytes = 1024

  /// The decoded `name`.
  let name: String
  /// The decoded file name; `nil` for a plain field.
  let filename: String?
  /// The part's `Content-Type`, if it has one.
  let contentType: String?
  /// Body bytes so far.
  private(set) var size: Int64 = 0
  private var hash = SHA256Digest()
  private var prefix: [UInt8] = []

  /// Starts a part.
  init(name: String, filename: String?, contentType: String?) {
    self.name = name
    self.filename = filename
    self.contentType = contentType
  }

  /// Adds body bytes.
  mutating func add(_ buffer: ByteBuffer) {
    size += Int64(buffer.readableBytes)
    hash.update(buffer)
    let room = Self.maxValueBytes + 1 - prefix.count
    if filename == nil, room > 0 {
      prefix.append(contentsOf: buffer.readableBytesView.prefix(room))
    }
  }

  /// The finished part's report.
  mutating func finish() -> UploadedPart {
    var value: String?
    if filename == nil, size <= Self.maxValueBytes {
      let text = String(decoding: prefix, as: UTF8.self)
      value = text.utf8.elementsEqual(prefix) ? text : nil
    }
    return UploadedPart(
      name: name,
      filename: filename,
      contentType: contentType,
      size: size,
      sha256: hash.finalizeHex(),
      value: value
    )
  }
}
#endif
