#if canImport(Hummingbird)
/// What a `Range` header (RFC 9110 §14.2) asks of a representation of known length: one byte range at most.
@available(macOS 14, iOS 17, tvOS 17, *)
enum ByteRange: Sendable, Equatable {
  /// No usable `Range`: answer 200 with the whole representation.
  ///
  /// That is the case without the header, with several `Range` fields or ranges (multipart/byteranges is not
  /// offered), with another unit, and with an invalid range such as `bytes=5-2` or `bytes=x` (§14.2 lets a server
  /// ignore those).
  case full
  /// 206 with these bytes (both ends included, already clamped to the length).
  case partial(ClosedRange<Int64>)
  /// 416: the range starts at or after the end, or is the empty suffix `-0`.
  case unsatisfiable

  /// Resolves the `Range` field values of a request against a representation of `length` bytes.
  static func resolve(_ fieldValues: [String], length: Int64) -> ByteRange {
    guard fieldValues.count == 1 else { return .full }
    let value = fieldValues[0].trimmingWhitespace()
    guard let equals = value.firstIndex(of: "="), value[..<equals].lowercased() == "bytes" else { return .full }
    let specs = value[value.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
      .map { String($0).trimmingWhitespace() }
    guard specs.count == 1, let dash = specs[0].firstIndex(of: "-") else { return .full }
    let spec = specs[0]
    let first = spec[..<dash]
    let last = spec[spec.index(after: dash)...]
    if first.isEmpty {
      guard let suffix = digits(last) else { return .full }
      guard suffix > 0, length > 0 else { return .unsatisfiable }
      return .partial(max(0, length - suffix)...(length - 1))
    }
    guard let start = digits(first) else { return .full }
    var end = length - 1
    if !last.isEmpty {
      guard let requestedEnd = digits(last), requestedEnd >= start else { return .full }
      end = min(end, requestedEnd)
    }
    guard start < length else { return .unsatisfiable }
    return .partial(start...end)
  }

  /// A run of ASCII digits as a number, saturating at `Int64.max`; `nil` for anything else.
  private static func digits(_ text: Substring) -> Int64? {
    guard !text.isEmpty else { return nil }
    var value: Int64 = 0
    for byte in text.utf8 {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
      value = overflow1 || overflow2 ? Int64.max : sum
    }
    return value
  }
}
#endif
