#if canImport(Hummingbird)
import Hummingbird

/// The validated query of `/flaky/{key}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FlakyOptions: Sendable, Equatable {
  /// How a planned failure fails.
  enum Mode: String, Sendable, CaseIterable {
    /// An HTTP error status with a JSON error body.
    case status
    /// The connection is reset before any response byte is sent.
    case reset
  }

  /// The `Retry-After` header a failing status response carries.
  enum RetryAfter: Sendable, Equatable {
    /// `Retry-After: <seconds>`.
    case seconds(Int)
    /// `Retry-After: <IMF-fixdate>` this many seconds in the future.
    case date(secondsAhead: Int)
  }

  /// Failures before the first success when `failures` is absent.
  static let defaultFailures = 2
  /// Accepted `failures` values.
  static let failuresRange = 0...20
  /// The status failures use when `status` is absent.
  static let defaultStatus = HTTPResponse.Status.serviceUnavailable
  /// Accepted `status` values (with their reason phrases, which the error codes derive from).
  static let allowedStatuses: [HTTPResponse.Status] = [
    .requestTimeout, .tooManyRequests, .internalServerError, .badGateway, .serviceUnavailable, .gatewayTimeout,
  ]
  /// Accepted `retryAfter` and `retryAfterDate` values, in seconds.
  static let retryAfterRange = 0...3600

  /// How many requests for the key fail before they succeed.
  var failures = defaultFailures
  /// How they fail.
  var mode = Mode.status
  /// The status of a failure in ``Mode/status``.
  var status = defaultStatus
  /// The `Retry-After` of a failure in ``Mode/status``.
  var retryAfter: RetryAfter?

  /// Parses and validates the query; 400 `invalid_parameter` naming the first bad parameter.
  ///
  /// `retryAfter` and `retryAfterDate` exclude each other, and neither they nor `status` may be combined with
  /// `mode=reset`, which sends no response at all.
  init(_ query: QueryString) throws {
    failures = try QueryParameter.int("failures", in: query, range: Self.failuresRange) ?? Self.defaultFailures
    if let raw = query.first("mode") {
      guard let mode = Mode(rawValue: raw) else {
        let allowed = Mode.allCases.map(\.rawValue).joined(separator: ", ")
        throw APIError.invalidParameter("mode", "Invalid value '\(raw)' for parameter 'mode': use one of \(allowed)")
      }
      self.mode = mode
    }
    if let raw = query.first("status") {
      guard let code = Int(raw), let status = Self.allowedStatuses.first(where: { $0.code == code }) else {
        let allowed = Self.allowedStatuses.map { String($0.code) }.joined(separator: ", ")
        throw APIError.invalidParameter(
          "status",
          "Invalid value '\(raw)' for parameter 'status': use one of \(allowed)"
        )
      }
      self.status = status
    }
    let seconds = try QueryParameter.int("retryAfter", in: query, range: Self.retryAfterRange)
    let dateSeconds = try QueryParameter.int("retryAfterDate", in: query, range: Self.retryAfterRange)
    switch (seconds, dateSeconds) {
    case (.some, .some):
      throw APIError.invalidParameter("retryAfterDate", "Use either 'retryAfter' or 'retryAfterDate', not both")
    case (.some(let seconds), nil):
      retryAfter = .seconds(seconds)
    case (nil, .some(let seconds)):
      retryAfter = .date(secondsAhead: seconds)
    case (nil, nil):
      retryAfter = nil
    }
    if mode == .reset {
      for name in ["status", "retryAfter", "retryAfterDate"] where query.first(name) != nil {
        throw APIError.invalidParameter(name, "Parameter '\(name)' has no effect with 'mode=reset'")
      }
    }
  }
}
#endif
