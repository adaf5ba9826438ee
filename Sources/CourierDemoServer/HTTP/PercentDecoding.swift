#if canImport(Hummingbird)
/// Percent-decoding as RFC 3986 defines it: `%XY` becomes the byte 0xXY and nothing else changes.
@available(macOS 14, iOS 17, tvOS 17, *)
enum PercentDecoding {
  /// Decodes `%XY` escapes; `+` stays `+`. Malformed escapes are kept literally and byte sequences that
  /// are not valid UTF-8 become U+FFFD.
  static func decode(_ text: some StringProtocol) -> String {
    decode(text, plusAsSpace: false)
  }

  /// Decodes `application/x-www-form-urlencoded` text, where `+` means a space.
  static func decodeForm(_ text: some StringProtocol) -> String {
    decode(text, plusAsSpace: true)
  }

  private static func decode(_ text: some StringProtocol, plusAsSpace: Bool) -> String {
    let input = Array(text.utf8)
    guard input.contains(UInt8(ascii: "%")) || (plusAsSpace && input.contains(UInt8(ascii: "+"))) else {
      return String(text)
    }
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var index = 0
    while index < input.count {
      let byte = input[index]
      if byte == UInt8(ascii: "%"), index + 2 < input.count,
        let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
        continue
      }
      output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
      index += 1
    }
    return String(decoding: output, as: UTF8.self)
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
