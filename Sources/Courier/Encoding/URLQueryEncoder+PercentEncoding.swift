import Foundation

extension URLQueryEncoder {
  /// Joins query items into `name=value&name=value`, percent-encoding both names and values with
  /// `percentEncode(_:)`. An item whose value is `nil` is written as just its name.
  ///
  /// ```swift
  /// URLQueryEncoder.percentEncodedString([
  ///   URLQueryItem(name: "q", value: "a&b c"),
  ///   URLQueryItem(name: "debug", value: nil),
  /// ])
  /// // "q=a%26b%20c&debug"
  /// ```
  public static func percentEncodedString(_ items: [URLQueryItem]) -> String {
    var result = ""
    for (offset, item) in items.enumerated() {
      if offset > 0 { result.append("&") }
      result.append(percentEncode(item.name))
      if let value = item.value {
        result.append("=")
        result.append(percentEncode(value))
      }
    }
    return result
  }

  /// Percent-encodes one query name or value as RFC 3986 recommends.
  ///
  /// Only the unreserved characters `A`–`Z`, `a`–`z`, `0`–`9`, `-`, `.`, `_` and `~` are kept; every other
  /// byte of the string's UTF-8 form becomes `%XX` with uppercase hex digits. That includes `&`, `=`, `+`,
  /// `#`, `?`, `/`, `[`, `]`, `%` and the space (always `%20`, never `+`), so the result is safe anywhere in
  /// a query and in a form body.
  ///
  /// ```swift
  /// URLQueryEncoder.percentEncode("a b&c=d")  // "a%20b%26c%3Dd"
  /// URLQueryEncoder.percentEncode("café")     // "caf%C3%A9"
  /// ```
  public static func percentEncode(_ component: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(component.utf8.count)
    appendPercentEncoded(component, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `component`'s UTF-8 bytes to `bytes`, percent-encoded as ``percentEncode(_:)`` does.
  static func appendPercentEncoded(_ component: String, to bytes: inout [UInt8]) {
    var component = component
    component.withUTF8 { utf8 in
      for byte in utf8 {
        if isUnreserved(byte) {
          bytes.append(byte)
        } else {
          bytes.append(UInt8(ascii: "%"))
          bytes.append(hexDigit(byte >> 4))
          bytes.append(hexDigit(byte & 0x0F))
        }
      }
    }
  }

  /// Writes `component` percent-encoded into `buffer` from `index`, which has room for three bytes per UTF-8 byte;
  /// returns the index after the last byte written.
  static func writePercentEncoded(
    _ component: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int
  )
    -> Int
  {
    if let written = component.utf8.withContiguousStorageIfAvailable({
      writePercentEncoded(utf8: $0, into: buffer, at: index)
    }) {
      return written
    }
    var copy = component
    return copy.withUTF8 { writePercentEncoded(utf8: $0, into: buffer, at: index) }
  }

  private static func writePercentEncoded(
    utf8: UnsafeBufferPointer<UInt8>,
    into buffer: UnsafeMutableBufferPointer<UInt8>,
    at start: Int
  ) -> Int {
    var index = start
    for byte in utf8 {
      if isUnreserved(byte) {
        buffer[index] = byte
        index += 1
      } else {
        buffer[index] = UInt8(ascii: "%")
        buffer[index + 1] = hexDigit(byte >> 4)
        buffer[index + 2] = hexDigit(byte & 0x0F)
        index += 3
      }
    }
    return index
  }

  /// The uppercase hex digit of a value below 16.
  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  /// Whether an ASCII byte is an RFC 3986 unreserved character.
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }
}
