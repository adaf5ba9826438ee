import HTTPTypes

/// The statuses an endpoint accepts, as ranges of codes; set through `Endpoint.expect(_:)` and
/// `Endpoint.expectAnyStatus()`, read through `Endpoint.accepts(_:)`.
struct StatusCodeSet: Sendable, Hashable {
  var ranges: [Range<Int>]

  /// 200 to 299, the default.
  static let success = StatusCodeSet(ranges: [200..<300])
  /// Every status: the call never throws `unacceptableStatus`.
  static let any = StatusCodeSet(ranges: [100..<1000])

  /// A set of the given statuses.
  init(_ statuses: [HTTPResponse.Status]) {
    ranges = statuses.map { $0.code..<($0.code + 1) }
  }

  /// A set of a range of codes.
  init(_ range: Range<Int>) {
    ranges = [range]
  }

  init(ranges: [Range<Int>]) {
    self.ranges = ranges
  }

  /// Whether `status` is in the set.
  func contains(_ status: HTTPResponse.Status) -> Bool {
    ranges.contains { $0.contains(status.code) }
  }
}
