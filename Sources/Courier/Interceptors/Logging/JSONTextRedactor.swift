/// Hides the values of named fields in JSON-like text without parsing it, for bodies that are cut short or
/// malformed.
///
/// It scans the bytes once: a string followed by `:` is a key, and when the key is one of `fields` its value (a
/// string, a number or literal, or a whole object or array) is replaced with the quoted placeholder. A value that
/// runs to the end of the text, as in a truncated body, is hidden to the end.
struct JSONTextRedactor {
  /// Lowercased field names.
  let fields: Set<String>
  let placeholder: String

  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")
  private static let colon = UInt8(ascii: ":")

  func redact(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      guard bytes[index] == Self.quote else {
        output.append(bytes[index])
        index += 1
        continue
      }
      let start = index
      let end = Self.endOfString(bytes, from: start)
      output.append(contentsOf: bytes[start..<end])
      index = end
      let colon = Self.skipWhitespace(bytes, from: end)
      guard end - start >= 2, bytes[end - 1] == Self.quote, colon < bytes.count, bytes[colon] == Self.colon else {
        continue
      }
      let key = String(decoding: bytes[(start + 1)..<(end - 1)], as: UTF8.self).lowercased()
      guard fields.contains(key) else { continue }
      let valueStart = Self.skipWhitespace(bytes, from: colon + 1)
      output.append(contentsOf: bytes[end..<valueStart])
      output.append(contentsOf: "\"\(placeholder)\"".utf8)
      index = Self.endOfValue(bytes, from: valueStart)
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The index just past the string that opens at `start`, or the end of the text when it never closes.
  static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start + 1
    while index < bytes.count {
      if bytes[index] == backslash {
        index += 2
        continue
      }
      if bytes[index] == quote { return index + 1 }
      index += 1
    }
    return bytes.count
  }

  /// The index just past the value that starts at `start`: a string, a balanced object or array, or a bare
  /// number or literal; the end of the text when the value is cut short.
  static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
    guard start < bytes.count else { return bytes.count }
    switch bytes[start] {
    case quote:
      return endOfString(bytes, from: start)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var index = start
      while index < bytes.count {
        switch bytes[index] {
        case quote:
          index = endOfString(bytes, from: index)
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return index + 1 }
        default:
          break
        }
        index += 1
      }
      return bytes.count
    default:
      var index = start
      while index < bytes.count, !isDelimiter(bytes[index]) { index += 1 }
      return index
    }
  }

  static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start
    while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
    return index
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func isDelimiter(_ byte: UInt8) -> Bool {
    isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
  }
}
