import CourierTestSupport
import Foundation
import Testing

@testable import Courier

/// Property tests over many generated queries: encoding never traps, fails only with `EncodingError`, and every
/// successful result survives a trip through `URLComponents`.
@Suite struct URLQueryRandomizedTests {
  /// A small deterministic generator (SplitMix64), so failures reproduce.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
  }

  static let alphabet: [String] = [
    "a", "Z", "0", " ", "&", "=", "+", "#", "?", "/", "[", "]", "%", "é", "日", "👍🏽", ",", "\"",
  ]

  static func randomString(_ generator: inout SeededGenerator) -> String {
    (0..<Int.random(in: 0...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined()
  }

  static func randomValue(depth: Int, _ generator: inout SeededGenerator) -> QueryValue {
    let kinds = depth > 2 ? 8 : 10
    switch Int.random(in: 0..<kinds, using: &generator) {
    case 0: return .string(randomString(&generator))
    case 1: return .int(Int64.random(in: .min ... .max, using: &generator))
    case 2: return .uint(UInt64.random(in: .min ... .max, using: &generator))
    case 3: return .double([1.5, -0, 1e300, .nan, .infinity, 0.1].randomElement(using: &generator) ?? 0)
    case 4: return .bool(Bool.random(using: &generator))
    case 5: return .date(Date(timeIntervalSince1970: Double.random(in: -1e10...1e10, using: &generator)))
    case 6, 7: return .null
    case 8:
      return .array(
        (0..<Int.random(in: 0...3, using: &generator)).map { _ in randomValue(depth: depth + 1, &generator) })
    default:
      return .object(randomQuery(depth: depth + 1, &generator))
    }
  }

  static func randomQuery(depth: Int, _ generator: inout SeededGenerator) -> QueryParameters {
    var query = QueryParameters()
    for _ in 0..<Int.random(in: 0...4, using: &generator) {
      query.append(randomString(&generator), randomValue(depth: depth, &generator))
    }
    return query
  }

  @Test(arguments: [URLQueryEncoder.ArrayEncoding.brackets, .repeated, .indexed, .commaSeparated, .json])
  func generatedQueriesNeverTrapAndRoundTrip(strategy: URLQueryEncoder.ArrayEncoding) throws {
    var generator = SeededGenerator(state: 2024)
    let encoder = URLQueryEncoder(arrayEncoding: strategy, dateEncoding: .millisecondsSince1970)
    var successes = 0
    for _ in 0..<300 {
      let query = Self.randomQuery(depth: 0, &generator)
      let items: [URLQueryItem]
      do {
        items = try encoder.encode(query)
      } catch is EncodingError {
        continue
      }
      successes += 1
      var components = URLComponents()
      components.percentEncodedQuery = URLQueryEncoder.percentEncodedString(items)
      #expect((components.queryItems ?? []) == items)
      #expect(items.allSatisfy { $0.value != nil })
    }
    #expect(successes > 50)
  }
}
