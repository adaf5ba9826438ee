#if canImport(Hummingbird)
/// The `Content-Disposition` of one `multipart/form-data` part (RFC 7578 §4.2): `form-data` with a `name` and, for
/// files, a `filename`.
///
/// Names and filenames are decoded the way browsers encode them (the HTML standard, which RFC 7578 §2 allows):
/// inside the quoted-string, `%22`, `%0D` and `%0A` stand for `"`, CR and LF; backslash escapes are undone too, and
/// any other `%` is kept as sent. `filename*=UTF-8''…` (RFC 8187 ext-value, also `ISO-8859-1`) wins over `filename`
/// when both are present.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FormDataDisposition: Sendable, Equatable {
  /// The field name.
  var name: String
  /// The file name, `nil` for a part without `filename` or `filename*` (a plain field).
  var filename: String?

  /// Creates a disposition from decoded values.
  init(name: String, filename: String?) {
    self.name = name
    self.filename = filename
  }

  /// Parses a `Content-Disposition` field value; throws a message describing the problem.
  init(fieldValue: String) throws(MultipartFailure) {
    guard let parsed = HeaderParameters(fieldValue) else {
      throw MultipartFailure("Malformed Content-Disposition '\(fieldValue)'")
    }
    guard parsed.value == "form-data" else {
      throw MultipartFailure("Content-Disposition must be 'form-data', got '\(parsed.value)'")
    }
    for parameter in ["name", "filename", "filename*"] where parsed.all(parameter).count > 1 {
      throw MultipartFailure("Content-Disposition has more than one '\(parameter)'")
    }
    guard let name = parsed.all("name").first else {
      throw MultipartFailure("Content-Disposition has no 'name'")
    }
    self.name = Self.browserDecoded(name.value)
    if let extended = parsed.all("filename*").first {
      guard let decoded = Self.extValue(extended.value) else {
        throw MultipartFailure("Malformed filename* '\(extended.value)': expected UTF-8''<percent-encoded>")
      }
      filename = decoded
    } else {
      filename = parsed.all("filename").first.map { Self.browserDecoded($0.value) }
    }
  }

  /// Replaces `%22`, `%0D` and `%0A` (either case) with `"`, CR and LF; everything else stays as it is.
  static func browserDecoded(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard bytes.contains(UInt8(ascii: "%")) else { return text }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count {
        let escape = String(decoding: bytes[index + 1...index + 2], as: UTF8.self).uppercased()
        let decoded: UInt8? = ["22": UInt8(ascii: "\""), "0D": 0x0D, "0A": 0x0A][escape]
        if let decoded {
          output.append(decoded)
          index += 3
          continue
        }
      }
      output.append(bytes[index])
      index += 1
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes an RFC 8187 ext-value `charset'language'percent-encoded` (`UTF-8` or `ISO-8859-1`); `nil` when it is
  /// malformed, uses another charset or is not valid UTF-8.
  static func extValue(_ text: String) -> String? {
    let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
    guard pieces.count == 3 else { return nil }
    let charset = pieces[0].lowercased()
    var bytes: [UInt8] = []
    var input = pieces[2].utf8[...]
    while let byte = input.popFirst() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      let digits = Array(input.prefix(2))
      guard digits.count == 2, let high = hexValue(digits[0]), let low = hexValue(digits[1]) else { return nil }
      bytes.append(high << 4 | low)
      input = input.dropFirst(2)
    }
    switch charset {
    case "utf-8":
      let text = String(decoding: bytes, as: UTF8.self)
      return text.utf8.elementsEqual(bytes) ? text : nil
    case "iso-8859-1":
      return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    default:
      return nil
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
#endif
