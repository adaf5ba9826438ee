#if canImport(Hummingbird)
import Foundation

/// The `If-Range` precondition (RFC 9110 §13.1.5): serve the `Range` only if the client's copy is still current.
@available(macOS 14, iOS 17, tvOS 17, *)
enum IfRange {
  /// Whether a `Range` may be honoured given the request's `If-Range` field values.
  ///
  /// Without `If-Range` it may. An entity tag must match `entityTag` by strong comparison (a weak tag never does);
  /// an HTTP-date must equal `lastModified` to the second. Anything else, including several fields, means the
  /// client's copy is stale, so the whole representation is sent with 200.
  static func allowsRange(_ fieldValues: [String], entityTag: EntityTag, lastModified: Date) -> Bool {
    guard let value = fieldValues.first?.trimmingWhitespace() else { return true }
    guard fieldValues.count == 1 else { return false }
    if value.hasPrefix("\"") {
      return !entityTag.isWeak && value == entityTag.description
    }
    if value.hasPrefix("W/") {
      return false
    }
    guard let date = HTTPDate.parse(value) else { return false }
    return date.timeIntervalSince1970.rounded(.down) == lastModified.timeIntervalSince1970.rounded(.down)
  }
}
#endif
