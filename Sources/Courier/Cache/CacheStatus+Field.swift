import HTTPTypes

extension HTTPField.Name {
  /// `Cache-Status` (RFC 9211): what each cache on the way did with a response.
  static let cacheStatus = HTTPField.Name("Cache-Status")!
}

extension CacheStatus {
  /// The name Courier's cache gives itself in `Cache-Status`.
  static let cacheName = "Courier"

  /// The status ``CacheInterceptor`` reported in the `Cache-Status` field of `response`, if it took part.
  package init?(_ response: HTTPResponse) {
    guard let field = response.headerFields[.cacheStatus] else { return nil }
    for member in field.split(separator: ",") {
      let parameters = member.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard parameters.first == Self.cacheName else { continue }
      let rest = Set(parameters.dropFirst())
      if rest.contains("hit") {
        self = rest.contains("detail=stale") ? .stale : .hit
      } else {
        self = rest.contains("fwd-status=304") ? .revalidated : .miss
      }
      return
    }
    return nil
  }

  /// This status as a `Cache-Status` member (RFC 9211 §2): `Courier; hit`, `Courier; fwd=miss`,
  /// `Courier; fwd=stale; fwd-status=304` or `Courier; hit; detail=stale`.
  var fieldMember: String {
    switch self {
    case .hit: "\(Self.cacheName); hit"
    case .miss: "\(Self.cacheName); fwd=miss"
    case .revalidated: "\(Self.cacheName); fwd=stale; fwd-status=304"
    case .stale: "\(Self.cacheName); hit; detail=stale"
    }
  }

  /// `response` with this status first in its `Cache-Status` field, before those of caches further away.
  func marking(_ response: HTTPResponse) -> HTTPResponse {
    var response = response
    let upstream = response.headerFields[.cacheStatus]
    response.headerFields[.cacheStatus] = upstream.map { "\(fieldMember), \($0)" } ?? fieldMember
    return response
  }
}
