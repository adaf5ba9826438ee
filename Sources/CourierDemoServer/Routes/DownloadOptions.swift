#if canImport(Hummingbird)
import Hummingbird

/// The validated path and query of `/download/{bytes}` (and of its `/drop` and `/sha256` siblings).
@available(macOS 14, iOS 17, tvOS 17, *)
struct DownloadOptions: Sendable, Equatable {
  /// Accepted `rate` values, in bytes per second.
  static let rateRange = 1...(1 << 40)
  /// Longest `etag` value.
  static let maxEntityTagLength = 200

  /// The body's length, from `{bytes}`.
  var length: Int64
  /// `"dl-<bytes>"`, or `"<etag>"` with `etag`; always strong.
  var entityTag: EntityTag
  /// `rate`: the most bytes per second to send, or `nil`.
  var rate: Int?

  /// Reads `{bytes}` (0 to 8 GiB) and the query; 400 `invalid_parameter` naming the first bad parameter.
  init(_ query: QueryString, context: DemoContext) throws {
    length = try Self.length(in: context)
    entityTag = EntityTag(opaque: "dl-\(length)", isWeak: false)
    if let raw = query.first("etag") {
      guard (1...Self.maxEntityTagLength).contains(raw.count), EntityTag.isValidOpaque(raw) else {
        throw APIError.invalidParameter(
          "etag",
          "Invalid value for parameter 'etag': expected 1 to \(Self.maxEntityTagLength) characters allowed in an "
            + "entity tag (no quotes, spaces or control characters)"
        )
      }
      entityTag = EntityTag(opaque: raw, isWeak: false)
    }
    rate = try QueryParameter.int("rate", in: query, range: Self.rateRange)
  }

  /// `{bytes}`: 0 to ``DownloadPattern/maxLength``; 400 `invalid_parameter` otherwise.
  static func length(in context: DemoContext) throws -> Int64 {
    let raw = context.parameters.get("bytes") ?? ""
    guard let value = Int64(raw), (0...DownloadPattern.maxLength).contains(value) else {
      throw APIError.invalidParameter(
        "bytes",
        "Path parameter 'bytes' must be an integer from 0 to \(DownloadPattern.maxLength), got '\(raw)'"
      )
    }
    return value
  }
}
#endif
