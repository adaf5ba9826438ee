import Courier
import Foundation

/// Encodes a 100-field or a 5-field struct into a percent-encoded query string, `count` times.
///
/// The raw baseline writes the `URLQueryItem`s by hand and lets `URLComponents` percent-encode them; Courier
/// gets there from the `Encodable` struct alone with `URLQueryEncoder`.
enum QueryEncodingScenario {
  static func run(raw: Bool, fields: Int, count: Int) throws -> Measurement {
    switch fields {
    case 100: try run(HundredFields(), items: { $0.handWrittenItems }, raw: raw, count: count)
    case 5: try run(FiveFields(), items: { $0.handWrittenItems }, raw: raw, count: count)
    default: throw BenchmarkFailure("--fields 100 or 5")
    }
  }

  static func run<Value: Encodable>(
    _ value: Value,
    items: @escaping (Value) -> [URLQueryItem],
    raw: Bool,
    count: Int
  ) throws -> Measurement {
    let encoder = URLQueryEncoder()
    var length = 0
    let encode: () throws -> String = {
      if raw {
        var components = URLComponents()
        components.queryItems = items(value)
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

/// A typical search filter: five fields of the kinds `HundredFields` mixes.
struct FiveFields: Encodable, Sendable {
  var term: String = "red shoes & socks"
  var page: Int = 2
  var minPrice: Double = 9.5
  var inStock: Bool = true
  var brand: String? = "Acme/é"

  /// The same query written by hand.
  var handWrittenItems: [URLQueryItem] {
    var items = [
      URLQueryItem(name: "term", value: term), URLQueryItem(name: "page", value: String(page)),
      URLQueryItem(name: "minPrice", value: String(minPrice)), URLQueryItem(name: "inStock", value: String(inStock)),
    ]
    if let brand { items.append(URLQueryItem(name: "brand", value: brand)) }
    return items
  }
}
