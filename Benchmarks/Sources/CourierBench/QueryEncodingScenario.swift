import Courier
import Foundation

/// Encodes a 100-field struct into a percent-encoded query string, `count` times.
///
/// The raw baseline writes the 100 `URLQueryItem`s by hand and lets `URLComponents` percent-encode them; Courier
/// gets there from the `Encodable` struct alone with `URLQueryEncoder`.
enum QueryEncodingScenario {
  static func run(raw: Bool, count: Int) throws -> Measurement {
    let value = HundredFields()
    let encoder = URLQueryEncoder()
    var length = 0
    let encode: () throws -> String = {
      if raw {
        var components = URLComponents()
        components.queryItems = value.handWrittenItems
        return components.percentEncodedQuery ?? ""
      }
      return try encoder.percentEncodedString(value)
    }
    for _ in 0..<min(count, 1000) { length &+= try encode().utf8.count }
    let start = ContinuousClock.now
    for _ in 0..<count { length &+= try encode().utf8.count }
    let seconds = secondsSince(start)
    guard length > 0 else { throw BenchmarkFailure("nothing encoded") }
    return Measurement(value: Double(count) / seconds, unit: "encodes/s", operations: count, seconds: seconds)
  }
}
