import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@available(macOS 14, iOS 17, tvOS 17, *)
extension TestClientProtocol {
  /// `GET /cache/hits/{key}`, decoded.
  func cacheHits(_ key: String) async throws -> CacheHits {
    try await send("/cache/hits/\(key)").decode(CacheHits.self)
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension TestResponse {
  /// The header `name` parsed as an IMF-fixdate; records an issue and throws when it is missing or malformed.
  func httpDate(_ name: HTTPField.Name) throws -> Date {
    let value = try #require(headers[name], "missing \(name)")
    return try #require(FlakyTests.parseHTTPDate(value), "\(name) is not an IMF-fixdate: \(value)")
  }
}

/// Helpers for the `/cache` tests.
@available(macOS 14, iOS 17, tvOS 17, *)
enum CacheTestSupport {
  /// Whether `date`, moved back by `offset` seconds, falls between `sent` and `received`: the times just before a
  /// request went out and just after its response came back.
  ///
  /// A server writes whole seconds (rounded down), so `staleness` (one second unless a server keeps the text of a
  /// date longer) is allowed before `sent`. No bound depends on how long the request took, so a starved test process
  /// cannot fail it.
  static func isBetween(
    _ date: Date, sent: Date, received: Date, offset: TimeInterval = 0, staleness: TimeInterval = 1
  ) -> Bool {
    let moved = date.addingTimeInterval(-offset)
    return moved >= sent.addingTimeInterval(-staleness) && moved <= received
  }
}
