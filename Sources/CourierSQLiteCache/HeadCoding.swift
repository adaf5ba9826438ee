import Courier
import Foundation
import HTTPTypes

/// The stored head of an entry in one blob (`entry.headers`), so a hit reads one column and decodes it without JSON.
///
/// Layout: the byte 0x02; the status code (2 bytes) and the request and response times (8 bytes each, the bits of a
/// `Double`), little-endian; then NUL-terminated strings: the reason phrase, the variant's name/value pairs ended by
/// an empty name, and the header fields' name/value pairs to the end. No string can hold a NUL: header names are
/// tokens, and `HTTPField` turns a NUL in a value into a space.
///
/// Rows written by earlier versions hold a JSON array of `[name, value]` pairs in that column; ``decode(_:)``
/// returns `nil` for them and the store reads their other columns instead.
enum HeadCoding {
  /// What a stored head holds; the key and body live in their own columns.
  struct Head {
    var status: HTTPResponse.Status
    var headerFields: HTTPFields
    var variant: [String: String]
    var requestTime: Date
    var responseTime: Date
  }

  static let marker: UInt8 = 2

  static func encode(_ entry: CachedResponse) -> Data {
    var bytes: [UInt8] = [marker]
    bytes.reserveCapacity(
      entry.response.headerFields.reduce(64) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 2 })
    let code = UInt16(clamping: entry.response.status.code)
    bytes += [UInt8(truncatingIfNeeded: code), UInt8(truncatingIfNeeded: code >> 8)]
    for time in [entry.requestTime, entry.responseTime] {
      let bits = time.timeIntervalSince1970.bitPattern
      for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }
    func append(_ text: String) {
      bytes += text.utf8.lazy.map { $0 == 0 ? UInt8(ascii: " ") : $0 }
      bytes.append(0)
    }
    append(entry.response.status.reasonPhrase)
    for (name, value) in entry.variant.sorted(by: { $0.key < $1.key }) where !name.isEmpty {
      append(name)
      append(value)
    }
    bytes.append(0)
    for field in entry.response.headerFields {
      append(field.name.rawName)
      // The value's bytes as the server sent them: obs-text (0x80-0xFF) is not always UTF-8.
      field.withUnsafeBytesOfValue { value in bytes += value.lazy.map { $0 == 0 ? UInt8(ascii: " ") : $0 } }
      bytes.append(0)
    }
    return Data(bytes)
  }

  /// The head in `data`, or `nil` when `data` is in the older JSON form or is malformed.
  static func decode(_ data: Data) -> Head? {
    data.withUnsafeBytes { raw in
      var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
      guard reader.byte() == marker, let low = reader.byte(), let high = reader.byte(),
        let requestBits = reader.uint64(), let responseBits = reader.uint64(), let reason = reader.string()
      else { return nil }
      let code = Int(low) | Int(high) << 8
      guard (100...999).contains(code) else { return nil }
      var variant: [String: String] = [:]
      while true {
        guard let name = reader.string() else { return nil }
        if name.isEmpty { break }
        guard let value = reader.string() else { return nil }
        variant[name] = value
      }
      var fields: [HTTPField] = []
      while !reader.isAtEnd {
        guard let name = reader.name(), let value = reader.text() else { return nil }
        if let name { fields.append(HTTPField(name: name, value: value)) }
      }
      return Head(
        status: HTTPResponse.Status(code: code, reasonPhrase: reason), headerFields: HTTPFields(fields),
        variant: variant, requestTime: Date(timeIntervalSince1970: Double(bitPattern: requestBits)),
        responseTime: Date(timeIntervalSince1970: Double(bitPattern: responseBits)))
    }
  }

  /// Reads a head's bytes from the front; every read fails (`nil`) past the end instead of trapping.
  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8? {
      guard index < bytes.count else { return nil }
      defer { index += 1 }
      return bytes[index]
    }

    mutating func uint64() -> UInt64? {
      guard bytes.count - index >= 8 else { return nil }
      var value: UInt64 = 0
      for offset in 0..<8 { value |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
      index += 8
      return value
    }

    /// The bytes up to the next NUL, which is skipped.
    mutating func text() -> UnsafeBufferPointer<UInt8>? {
      guard let end = bytes[index...].firstIndex(of: 0) else { return nil }
      defer { index = end + 1 }
      return UnsafeBufferPointer(rebasing: bytes[index..<end])
    }

    mutating func string() -> String? {
      text().map { String(decoding: $0, as: UTF8.self) }
    }

    /// A field name: `.some(nil)` for a name that is not a valid token (skipped), `nil` past the end.
    mutating func name() -> HTTPField.Name?? {
      guard let text = text() else { return nil }
      for (bytes, name) in Self.commonNames where bytes.count == text.count {
        if bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }) {
          return .some(name)
        }
      }
      return .some(HTTPField.Name(String(decoding: text, as: UTF8.self)))
    }

    /// Names found on most responses with their bytes, matched before the validating initializer is tried.
    static let commonNames: [(bytes: [UInt8], name: HTTPField.Name)] = [
      HTTPField.Name.server, .date, .contentType, .contentLength, .lastModified, .connection, .eTag, .acceptRanges,
      .cacheControl, .expires, .vary, .contentEncoding, .age, .transferEncoding, .setCookie, .location,
    ].map { (Array($0.rawName.utf8), $0) }
  }
}
