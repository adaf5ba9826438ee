import Foundation
import HTTPTypes

/// A stored response: what was asked (the URL and the request headers the response `Vary`s on), what came back,
/// and when, so its age can be computed later (RFC 9111 §4.2.3).
public struct CachedResponse: Sendable {
  /// The cache key: the method when it is not GET, then the absolute URL.
  public var key: String
  /// The request headers named by `Vary`, lower-cased names to values (absent headers are absent).
  public var variant: [String: String]
  /// The response head as stored (updated by revalidations).
  public var response: HTTPResponse
  /// The body.
  public var body: Data
  /// When the request that produced the response was sent.
  public var requestTime: Date
  /// When the response arrived.
  public var responseTime: Date

  /// Creates an entry.
  public init(
    key: String,
    variant: [String: String],
    response: HTTPResponse,
    body: Data,
    requestTime: Date,
    responseTime: Date
  ) {
    self.key = key
    self.variant = variant
    self.response = response
    self.body = body
    self.requestTime = requestTime
    self.responseTime = responseTime
  }

  /// A stable string for the variant, so a store can keep one entry per key and variant.
  public var variantKey: String {
    variant.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
  }

  /// Bytes the entry takes, roughly: the body plus the header text.
  public var size: Int {
    body.count + response.headerFields.reduce(key.utf8.count) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
  }
}

extension CachedResponse {
  /// When the entry stops being fresh (RFC 9111 §4.2), ignoring extensions such as `stale-while-revalidate`;
  /// stores use it to clean up expired entries.
  public var expirationDate: Date {
    let freshness = Freshness(self, now: responseTime)
    return responseTime.addingTimeInterval(freshness.remaining)
  }
}
