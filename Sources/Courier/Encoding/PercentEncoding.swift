import Foundation

/// Percent-encoding (RFC 3986 §2.1), written once for everything Courier encodes: a query's names and values, an
/// endpoint's path and inline query, a redirect's `Location`. Which bytes stay as they are is the caller's set
/// (``unreserved``, ``path``, ``query``, ``reference``); every other byte of the text's UTF-8 form becomes `%XX` with
/// uppercase hex digits.
enum PercentEncoding {
  /// A set of ASCII bytes, as two 64-bit masks: whether a byte is in it is a shift and a test, in the loop that
  /// looks at every byte of every query value.
  struct ByteSet: Sendable {
    private let low: UInt64
    private let high: UInt64

    /// The ASCII letters and digits, and the bytes of `others`.
    init(lettersAndDigitsAnd others: String) {
      var low: UInt64 = 0
      var high: UInt64 = 0
      let members =
        Array(others.utf8) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        + Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "0")...UInt8(ascii: "9"))
      for byte in members where byte < 128 {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
      }
      self.low = low
      self.high = high
    }

    /// Whether `byte` is in the set.
    func contains(_ byte: UInt8) -> Bool {
      byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : byte < 128 && (high >> UInt64(byte &- 64)) & 1 == 1
    }
  }

  /// RFC 3986 unreserved: `A`–`Z`, `a`–`z`, `0`–`9`, `-`, `.`, `_`, `~` — what a query name or value keeps.
  static let unreserved = ByteSet(lettersAndDigitsAnd: "-._~")
  /// RFC 3986 `pchar` plus `/`: unreserved, sub-delims, `:` and `@`.
  static let path = ByteSet(lettersAndDigitsAnd: "-._~!$&'()*+,;=:@/")
  /// RFC 3986 `query` (and `fragment`): `pchar`, `/` and `?`.
  static let query = ByteSet(lettersAndDigitsAnd: "-._~!$&'()*+,;=:@/?")
  /// What a URI reference may hold before its fragment: a path's and a query's characters, and the brackets of an IP
  /// literal host.
  static let reference = ByteSet(lettersAndDigitsAnd: "-._~!$&'()*+,;=:@/?[]")

  /// `text` percent-encoded; `text` itself, without a copy of its bytes, when nothing needs escaping.
  ///
  /// - Parameters:
  ///   - allowed: The bytes kept as they are.
  ///   - keepingEscapes: Whether a valid `%XX` already in `text` is kept (text that may be encoded already, as a
  ///     path or a `Location` is) rather than its `%` encoded (a query value, which is data).
  static func encode(_ text: Substring, keeping allowed: ByteSet, keepingEscapes: Bool = false) -> String {
    var text = text
    return text.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        if allowed.contains(bytes[index]) {
          index += 1
        } else if keepingEscapes, isEscape(bytes, at: index) {
          index += 3
        } else {
          break
        }
      }
      if index == bytes.count { return String(decoding: bytes, as: UTF8.self) }
      return String(unsafeUninitializedCapacity: bytes.count * 3) { output in
        write(bytes, keeping: allowed, keepingEscapes: keepingEscapes, into: output, at: 0)
      }
    }
  }

  /// Writes `text` percent-encoded into `output` from `start`, as ``encode(_:keeping:keepingEscapes:)`` does;
  /// `output` has room for three bytes per UTF-8 byte of `text`. Returns the index after the last byte written.
  static func write(
    _ text: String, keeping allowed: ByteSet, into output: UnsafeMutableBufferPointer<UInt8>, at start: Int
  ) -> Int {
    if let written = text.utf8.withContiguousStorageIfAvailable({
      write($0, keeping: allowed, keepingEscapes: false, into: output, at: start)
    }) {
      return written
    }
    var copy = text
    return copy.withUTF8 { write($0, keeping: allowed, keepingEscapes: false, into: output, at: start) }
  }

  /// The one loop: `bytes` into `output` from `start`.
  static func write(
    _ bytes: UnsafeBufferPointer<UInt8>, keeping allowed: ByteSet, keepingEscapes: Bool,
    into output: UnsafeMutableBufferPointer<UInt8>, at start: Int
  ) -> Int {
    var index = start
    var position = 0
    while position < bytes.count {
      let byte = bytes[position]
      if allowed.contains(byte) {
        output[index] = byte
        index += 1
        position += 1
      } else if keepingEscapes, isEscape(bytes, at: position) {
        output[index] = byte
        output[index + 1] = bytes[position + 1]
        output[index + 2] = bytes[position + 2]
        index += 3
        position += 3
      } else {
        output[index] = UInt8(ascii: "%")
        output[index + 1] = hexDigit(byte >> 4)
        output[index + 2] = hexDigit(byte & 0x0F)
        index += 3
        position += 1
      }
    }
    return index
  }

  /// Whether a valid `%XX` escape starts at `index`.
  private static func isEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    bytes[index] == UInt8(ascii: "%") && index + 2 < bytes.count && isHexDigit(bytes[index + 1])
      && isHexDigit(bytes[index + 2])
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
  }

  /// The uppercase hex digit of a value below 16.
  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }
}
