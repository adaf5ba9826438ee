#if canImport(Hummingbird)
import Hummingbird

/// The validated query of `POST`, `PUT`, `PATCH` and `DELETE /cache/resource/{key}`.
///
/// Unknown parameters are ignored.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheUpdateOptions: Sendable, Equatable {
  /// Accepted `status` values.
  static let statusRange = 200...599

  /// `location`: echoed as `Location`, e.g. `/cache/resource/other` (an invalidation target).
  var location: String?
  /// `contentLocation`: echoed as `Content-Location`.
  var contentLocation: String?
  /// `status`: the status to answer instead of 200 (204 for `DELETE`).
  var status: HTTPResponse.Status?

  /// Parses and validates the query; 400 `invalid_parameter` naming the first bad parameter.
  ///
  /// `location` and `contentLocation` must be URI references: non-empty, visible ASCII only (percent-encode the rest).
  init(_ query: QueryString) throws {
    location = try Self.uriReference("location", in: query)
    contentLocation = try Self.uriReference("contentLocation", in: query)
    status = try QueryParameter.int("status", in: query, range: Self.statusRange).map { HTTPResponse.Status(code: $0) }
  }

  private static func uriReference(_ name: String, in query: QueryString) throws -> String? {
    guard let raw = query.first(name) else { return nil }
    guard !raw.isEmpty, raw.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      throw APIError.invalidParameter(
        name,
        "Invalid value for parameter '\(name)': expected a path or URL in visible ASCII, without spaces"
      )
    }
    return raw
  }
}
#endif
