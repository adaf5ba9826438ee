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
  /// Whether `date` is within `tolerance` seconds of `expected`.
  static func isClose(_ date: Date, to expected: Date, tolerance: TimeInterval = 3) -> Bool {
    abs(date.timeIntervalSince(expected)) <= tolerance
  }
}
