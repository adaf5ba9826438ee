#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// The validators of a conditional `GET` or `HEAD` (RFC 9110 §13.1): `If-None-Match` and `If-Modified-Since`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheConditions: Sendable, Equatable {
  /// The parsed `If-None-Match`, if sent.
  var ifNoneMatch: IfNoneMatch?
  /// The `If-Modified-Since` date, if sent once and a valid HTTP-date (otherwise it is ignored, as §13.1.3 says).
  var ifModifiedSince: Date?

  /// Reads the validators from request headers.
  init(headers: HTTPFields) {
    ifNoneMatch = IfNoneMatch(fieldValues: headers[values: .ifNoneMatch])
    let since = headers[values: .ifModifiedSince]
    ifModifiedSince = since.count == 1 ? HTTPDate.parse(since[0]) : nil
  }

  /// Whether the request gets 304 for a representation with these validators.
  ///
  /// `If-None-Match`, when present, decides alone: it matches `*` (the resource always exists) or a listed tag
  /// equal to `entityTag` by weak comparison. Otherwise the answer is 304 when `lastModified` is at or before
  /// `If-Modified-Since`; without `Last-Modified` it is never 304.
  func isNotModified(entityTag: EntityTag?, lastModified: Date?) -> Bool {
    if let ifNoneMatch {
      return ifNoneMatch.matches(entityTag)
    }
    guard let ifModifiedSince, let lastModified else { return false }
    return lastModified <= ifModifiedSince
  }
}
#endif
