#if canImport(Hummingbird)
import HTTPTypes

/// Reads typed query parameters, answering 400 `invalid_parameter` (naming the parameter) for bad values.
@available(macOS 14, iOS 17, tvOS 17, *)
enum QueryParameter {
  /// The integer sent as `name`, or `nil` when absent; 400 unless it is an integer within `range`.
  static func int(_ name: String, in query: QueryString, range: ClosedRange<Int>) throws -> Int? {
    guard let raw = query.first(name) else { return nil }
    guard let value = Int(raw), range.contains(value) else {
      throw APIError.invalidParameter(
        name,
        "Invalid value '\(raw)' for parameter '\(name)': expected an integer from \(range.lowerBound) to "
          + "\(range.upperBound)"
      )
    }
    return value
  }

  /// A wait in milliseconds: `fallback` when absent, larger values capped at `cap`; 400 unless an integer ≥ 0.
  static func milliseconds(_ name: String, in query: QueryString, default fallback: Int, cap: Int) throws -> Int {
    guard let raw = query.first(name) else { return fallback }
    guard let value = Int(raw), value >= 0 else {
      throw APIError.invalidParameter(
        name,
        "Invalid value '\(raw)' for parameter '\(name)': expected an integer ≥ 0 (milliseconds)"
      )
    }
    return min(value, cap)
  }

  /// A switch sent as `name=1` (on) or `name=0` (off), or `nil` when absent; 400 for any other value.
  static func flag(_ name: String, in query: QueryString) throws -> Bool? {
    guard let raw = query.first(name) else { return nil }
    switch raw {
    case "1": return true
    case "0": return false
    default:
      throw APIError.invalidParameter(name, "Invalid value '\(raw)' for parameter '\(name)': expected 1 or 0")
    }
  }

  /// A value to send verbatim in a response header, or `nil` when absent; 400 when it is empty or not a valid field
  /// value (control characters, leading or trailing whitespace).
  static func fieldValue(_ name: String, in query: QueryString) throws -> String? {
    guard let raw = query.first(name) else { return nil }
    guard !raw.isEmpty, HTTPField.isValidValue(raw) else {
      throw APIError.invalidParameter(
        name,
        "Invalid value for parameter '\(name)': expected a non-empty header value without control characters or "
          + "surrounding whitespace"
      )
    }
    return raw
  }
}
#endif
