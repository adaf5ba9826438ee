import Courier
import Foundation
import HTTPTypes

/// What the outbox does after an attempt: the typed outcome of a send, decided from the answer or the failure alone.
package enum DeliveryDecision: Sendable, Equatable {
  /// The server applied it.
  case delivered
  /// Send it again later: a transport failure, 408, 425, 429, 500, 502, 503, 504, or 409 (a concurrent duplicate
  /// still in flight); `retryAfter` is what the server asked for, in seconds.
  case retry(reason: String, retryAfter: TimeInterval?)
  /// 401: the lane waits until a fresh token comes (or the app resumes it).
  case pause(reason: String)
  /// Any other 4xx — among them 422, the key reused with another payload — or a failure that sending again cannot
  /// mend: the item becomes a dead letter, its answer kept.
  case deadLetter(reason: String)

  /// The statuses sent again later.
  static let retriedStatuses: Set<Int> = [408, 409, 425, 429, 500, 502, 503, 504]

  /// The decision for an answer with `status` (and its `Retry-After`, read against `now`).
  package static func decide(status: HTTPResponse.Status, headerFields: HTTPFields, now: Date) -> DeliveryDecision {
    let code = status.code
    switch code {
    case 200..<400:
      return .delivered
    case 401:
      return .pause(reason: "the server answered 401 Unauthorized")
    case _ where retriedStatuses.contains(code):
      return .retry(
        reason: "the server answered \(code)", retryAfter: retryAfter(headerFields[.retryAfter], now: now))
    case 400..<500:
      return .deadLetter(reason: "the server refused the item with \(code)")
    default:
      // A 5xx other than those retried (501 Not Implemented, 505 …) will not change by sending again.
      return .deadLetter(reason: "the server answered \(code), which sending again will not change")
    }
  }

  /// The decision for a call that failed before its answer arrived whole.
  ///
  /// A failure after the head decides by its status, except a success whose body was lost on the way (the connection
  /// dropped, the deadline cut it): the server applied the item, but what it answered is not known, and the items
  /// bound to that answer would be bound to nothing. It is sent again with its key, so that a server that honours
  /// `Idempotency-Key` answers with what it stored. Any other failure after a success's head stays delivered, as
  /// sending again would fail the same way: a redirect the client refuses, a body too large to keep or to inflate.
  package static func decide(failure: any Error) -> DeliveryDecision {
    guard let error = failure as? CourierError else {
      return .retry(reason: "the request failed: \(failure)", retryAfter: nil)
    }
    if let status = error.status, let response = error.response {
      if (200..<400).contains(status.code), error.kind == .connectionLost || error.kind == .timeout {
        return .retry(
          reason: "the server answered \(status.code), but its body was lost: \(error.detail)", retryAfter: nil)
      }
      return decide(status: status, headerFields: response.headerFields, now: Date())
    }
    switch error.kind {
    case .invalidURL, .invalidRequest, .encoding:
      return .deadLetter(reason: "the request cannot be sent: \(error.detail)")
    default:
      return .retry(reason: "\(error.kind): \(error.detail)", retryAfter: nil)
    }
  }

  /// `Retry-After` as seconds from `now`: a number of seconds or an HTTP date.
  static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    if let seconds = Int(value), seconds >= 0 { return TimeInterval(seconds) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    guard let date = formatter.date(from: value) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }

  /// The wait before attempt `attempt + 1`: full jitter over an exponential backoff (`random` in 0..<1), never less
  /// than what the server asked for.
  package static func backoff(
    afterAttempt attempt: Int, base: TimeInterval, maximum: TimeInterval, retryAfter: TimeInterval?, random: Double
  ) -> TimeInterval {
    let ceiling = min(maximum, base * pow(2, Double(max(attempt - 1, 0))))
    return max(ceiling * random, retryAfter ?? 0)
  }
}
