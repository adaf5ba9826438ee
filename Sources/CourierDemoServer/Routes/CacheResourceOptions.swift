#if canImport(Hummingbird)
import HTTPTypes
import Hummingbird

/// The validated query of `GET /cache/resource/{key}`: which caching headers the resource is served with.
///
/// Every parameter is optional; without any the response carries no caching headers at all (only `Date`). Unknown
/// parameters are ignored, so tests can add one (say `n=2`) to get a distinct URL, hence a distinct cache entry.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheResourceOptions: Sendable, Equatable {
  /// The strength of the `ETag`.
  enum ETagStrength: Sendable, Equatable {
    /// `ETag: "<key>-v<version>"`.
    case strong
    /// `ETag: W/"<key>-v<version>"`.
    case weak
  }

  /// The `Vary` header and the request headers it names.
  struct Vary: Sendable, Equatable {
    /// The value, sent verbatim, e.g. `Accept-Language, Accept`.
    var value: String
    /// The header names in the value; empty for `*`.
    var names: [String]
  }

  /// Seconds between `Last-Modified` and the version's creation when `lmAgeSeconds` is absent.
  static let defaultLastModifiedAge = 3_600
  /// Accepted `lmAgeSeconds` values (up to ten years).
  static let lastModifiedAgeRange = 0...315_360_000
  /// Accepted `expires` and `date` offsets in seconds (ten years either way).
  static let offsetRange = -315_360_000...315_360_000
  /// Accepted `age` values (RFC 9111 caps delta-seconds at 2^31).
  static let ageRange = 0...2_147_483_648
  /// Accepted `fail` statuses, with the reason phrases their error codes derive from.
  static let failureStatuses: [HTTPResponse.Status] = [
    .internalServerError, .notImplemented, .badGateway, .serviceUnavailable, .gatewayTimeout,
  ]

  /// `cc`: the `Cache-Control` value, sent verbatim.
  var cacheControl: String?
  /// `etag=1` (and `weak=1`): whether and how the response carries an `ETag`.
  var entityTag: ETagStrength?
  /// `lm=1` (and `lmAgeSeconds`): how long before the version's creation it was last modified, or `nil` for no
  /// `Last-Modified`.
  var lastModifiedAge: Int?
  /// `expires`: `Expires` is this many seconds after the real time (negative: in the past).
  var expires: Int?
  /// `date`: `Date` is this many seconds after the real time (0 when absent).
  var dateOffset = 0
  /// `age`: the `Age` value.
  var age: Int?
  /// `vary`: the `Vary` header.
  var vary: Vary?
  /// `pragma=no-cache`: whether to send `Pragma: no-cache`.
  var pragmaNoCache = false
  /// `fail`: answer this error status (`Cache-Control: no-store`) instead of the resource.
  var failure: HTTPResponse.Status?

  /// Parses and validates the query; 400 `invalid_parameter` naming the first bad parameter.
  ///
  /// `weak` needs `etag=1` and `lmAgeSeconds` needs `lm=1`, as they have no effect otherwise.
  init(_ query: QueryString) throws {
    cacheControl = try QueryParameter.fieldValue("cc", in: query)
    let etag = try QueryParameter.flag("etag", in: query) ?? false
    let weak = try QueryParameter.flag("weak", in: query)
    if weak != nil && !etag {
      throw APIError.invalidParameter("weak", "Parameter 'weak' has no effect without 'etag=1'")
    }
    entityTag = etag ? (weak == true ? .weak : .strong) : nil
    let lastModified = try QueryParameter.flag("lm", in: query) ?? false
    let age = try QueryParameter.int("lmAgeSeconds", in: query, range: Self.lastModifiedAgeRange)
    if age != nil && !lastModified {
      throw APIError.invalidParameter("lmAgeSeconds", "Parameter 'lmAgeSeconds' has no effect without 'lm=1'")
    }
    lastModifiedAge = lastModified ? age ?? Self.defaultLastModifiedAge : nil
    expires = try QueryParameter.int("expires", in: query, range: Self.offsetRange)
    dateOffset = try QueryParameter.int("date", in: query, range: Self.offsetRange) ?? 0
    self.age = try QueryParameter.int("age", in: query, range: Self.ageRange)
    vary = try QueryParameter.fieldValue("vary", in: query).map(Self.vary)
    if let pragma = query.first("pragma") {
      guard pragma == "no-cache" else {
        throw APIError.invalidParameter("pragma", "Invalid value '\(pragma)' for parameter 'pragma': use no-cache")
      }
      pragmaNoCache = true
    }
    if let raw = query.first("fail") {
      guard let code = Int(raw), let status = Self.failureStatuses.first(where: { $0.code == code }) else {
        throw APIError.invalidParameter(
          "fail",
          "Invalid value '\(raw)' for parameter 'fail': expected a status from 500 to 504"
        )
      }
      failure = status
    }
  }

  /// `*` or a comma-separated list of header names; 400 otherwise.
  private static func vary(_ value: String) throws -> Vary {
    if value == "*" {
      return Vary(value: value, names: [])
    }
    let names = value.split(separator: ",", omittingEmptySubsequences: false).map(trimmingWhitespace)
    guard names.allSatisfy({ $0 != "*" && HTTPField.Name($0) != nil }) else {
      throw APIError.invalidParameter(
        "vary",
        "Invalid value '\(value)' for parameter 'vary': expected * or a comma-separated list of header names"
      )
    }
    return Vary(value: value, names: names)
  }

  /// `text` without leading and trailing spaces and tabs.
  private static func trimmingWhitespace(_ text: Substring) -> String {
    let isText: (Character) -> Bool = { $0 != " " && $0 != "\t" }
    guard let first = text.firstIndex(where: isText), let last = text.lastIndex(where: isText) else { return "" }
    return String(text[first...last])
  }
}
#endif
