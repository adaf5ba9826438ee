import Foundation

/// `JSONDecoder` alone on the 1 KB document the GET and cache scenarios fetch: the ceiling for any decoded call.
enum DecodeScenario {
  static func run(count: Int) throws -> Measurement {
    let data = try JSONEncoder().encode(Catalog.sample)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601  // as `APIClient.Configuration`'s decoder
    for _ in 0..<min(count, 1_000) { _ = try decoder.decode(Catalog.self, from: data) }
    let start = ContinuousClock.now
    for _ in 0..<count {
      guard try decoder.decode(Catalog.self, from: data).items.count == 8 else { throw BenchmarkFailure("decode") }
    }
    let seconds = secondsSince(start)
    return Measurement(value: Double(count) / seconds, unit: "decodes/s", operations: count, seconds: seconds)
  }
}
