import Foundation
import HTTPTypes

/// How fresh a stored response is (RFC 9111 §4.2): its freshness lifetime and its current age.
struct Freshness: Sendable {
  /// How long the response stays fresh after it was generated.
  let lifetime: TimeInterval
  /// How old the response is now.
  let age: TimeInterval

  var isFresh: Bool { lifetime > age }
  /// How long ago it became stale (0 while fresh).
  var staleness: TimeInterval { max(0, age - lifetime) }
  /// How long it stays fresh (negative once stale).
  var remaining: TimeInterval { lifetime - age }

  /// Statuses whose responses may be given a heuristic freshness (RFC 9110 §15.1).
  static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

  init(_ entry: CachedResponse, now: Date) {
    self.init(entry, control: CacheControl(entry.response.headerFields), now: now)
  }

  /// The freshness of `entry`, whose response's `Cache-Control` the caller has already parsed into `control`.
  init(_ entry: CachedResponse, control: CacheControl, now: Date) {
    let fields = entry.response.headerFields
    let date = fields[.date].flatMap { HTTPDate.parse($0) } ?? entry.responseTime
    lifetime = Self.lifetime(of: entry.response, control: control, date: date)
    age = Self.age(of: entry, date: date, now: now)
  }

  /// max-age, else Expires − Date, else 10% of Date − Last-Modified for heuristically cacheable statuses and `public`
  /// responses (at most a day).
  static func lifetime(of response: HTTPResponse, receivedAt responseTime: Date) -> TimeInterval {
    let date = response.headerFields[.date].flatMap { HTTPDate.parse($0) } ?? responseTime
    return lifetime(of: response, control: CacheControl(response.headerFields), date: date)
  }

  /// The lifetime given the parsed `Cache-Control` and the response's `Date` (or its arrival time).
  static func lifetime(of response: HTTPResponse, control: CacheControl, date: Date) -> TimeInterval {
    if let maxAge = control.maxAge { return maxAge }
    let fields = response.headerFields
    if let expires = fields[.expires] {
      // An invalid Expires, including a lenient form (a UTC zone, a one-digit day), means "already expired"; names
      // in another case and a weekday that does not match the date are accepted, as browsers do.
      guard let expiry = HTTPDate.parseStrict(expires) else { return 0 }
      return max(0, expiry.timeIntervalSince(date))
    }
    // RFC 9111 §4.2.2: a heuristic lifetime for the statuses RFC 9110 calls heuristically cacheable, and for any
    // status marked `public`.
    if heuristicallyCacheable.contains(response.status.code) || control.isPublic,
      let modified = fields[.lastModified].flatMap({ HTTPDate.parse($0) })
    {
      return min(max(0, date.timeIntervalSince(modified) / 10), 86_400)
    }
    return 0
  }

  /// The `Age` field's value (RFC 9111 §5.1): the first of several lines or list members, when it is a
  /// non-negative integer (`7200.0`, `1e3`, `-5` and `7200x` are invalid and ignored); large values saturate.
  static func ageValue(_ field: String) -> TimeInterval? {
    let first = field.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)[0]
      .trimmingCharacters(in: .whitespaces)
    guard !first.isEmpty, first.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return first.count > 10 ? 2_147_483_648 : TimeInterval(first)
  }

  /// The current age (corrected initial age plus resident time), given the response's `Date` (or its arrival time).
  static func age(of entry: CachedResponse, date: Date, now: Date) -> TimeInterval {
    let fields = entry.response.headerFields
    let ageValue = fields[.age].flatMap(Self.ageValue) ?? 0
    let apparentAge = max(0, entry.responseTime.timeIntervalSince(date))
    let responseDelay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
    let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
    return correctedInitialAge + max(0, now.timeIntervalSince(entry.responseTime))
  }
}
