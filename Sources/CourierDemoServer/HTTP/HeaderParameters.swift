#if canImport(Hummingbird)
/// A field value of the form `type; name=value; other="quoted value"`, as `Content-Type` and `Content-Disposition`
/// carry it (RFC 9110 §5.6.6, RFC 6266 §4.1).
///
/// Parsing is strict about structure (every parameter needs a name and `=`, quoted-strings must be closed, nothing
/// may follow a quoted-string but `;`) and lenient about unquoted values, which may hold any visible character
/// except `;` and `"`: clients often leave boundaries with `=` or `/` unquoted.
@available(macOS 14, iOS 17, tvOS 17, *)
struct HeaderParameters: Sendable, Equatable {
  /// One `name=value` parameter.
  struct Parameter: Sendable, Equatable {
    /// The name, lowercased (e.g. `filename*`).
    var name: String
    /// The value, with the quotes and backslash escapes of a quoted-string removed.
    var value: String
    /// Whether the value was sent as a quoted-string.
    var isQuoted: Bool
  }

  /// The part before the first `;`, trimmed and lowercased (e.g. `multipart/form-data`).
  var value: String
  /// The parameters in the order sent.
  var parameters: [Parameter]

  /// Parses `text`, or returns `nil` when it is not of that form.
  init?(_ text: String) {
    var scanner = Scanner(bytes: Array(text.utf8))
    let head = scanner.take { $0 != UInt8(ascii: ";") }
    value = String(decoding: head, as: UTF8.self).trimmingWhitespace().lowercased()
    parameters = []
    while scanner.skip(UInt8(ascii: ";")) {
      scanner.skipWhitespace()
      if scanner.isAtEnd {
        break  // A trailing `;` is harmless.
      }
      guard let parameter = scanner.parameter() else { return nil }
      parameters.append(parameter)
      scanner.skipWhitespace()
      guard scanner.isAtEnd || scanner.peek == UInt8(ascii: ";") else { return nil }
    }
  }

  /// Every parameter called `name` (lowercase).
  func all(_ name: String) -> [Parameter] {
    parameters.filter { $0.name == name }
  }

  /// Reads parameters byte by byte.
  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index >= bytes.count }
    var peek: UInt8? { isAtEnd ? nil : bytes[index] }

    mutating func take(while predicate: (UInt8) -> Bool) -> ArraySlice<UInt8> {
      let start = index
      while let byte = peek, predicate(byte) {
        index += 1
      }
      return bytes[start..<index]
    }

    mutating func skip(_ byte: UInt8) -> Bool {
      guard peek == byte else { return false }
      index += 1
      return true
    }

    mutating func skipWhitespace() {
      _ = take { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// `token [OWS] "=" [OWS] (quoted-string / value)`.
    mutating func parameter() -> Parameter? {
      let name = take(while: Self.isTokenByte)
      skipWhitespace()
      guard !name.isEmpty, skip(UInt8(ascii: "=")) else { return nil }
      skipWhitespace()
      let lowered = String(decoding: name, as: UTF8.self).lowercased()
      if skip(UInt8(ascii: "\"")) {
        guard let value = quotedRest() else { return nil }
        return Parameter(name: lowered, value: value, isQuoted: true)
      }
      let value = take { $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "\"") }
      guard !value.isEmpty else { return nil }
      return Parameter(name: lowered, value: String(decoding: value, as: UTF8.self), isQuoted: false)
    }

    /// The rest of a quoted-string after its opening quote, unescaped; `nil` when it is never closed.
    mutating func quotedRest() -> String? {
      var value: [UInt8] = []
      while let byte = peek {
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(decoding: value, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard let escaped = peek else { return nil }
          value.append(escaped)
          index += 1
        default:
          value.append(byte)
        }
      }
      return nil
    }

    /// `tchar` of RFC 9110 §5.6.2.
    static func isTokenByte(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
      default:
        return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
      }
    }
  }
}
#endif
