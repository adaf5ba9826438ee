#if canImport(Hummingbird)
import Foundation

@available(macOS 14, iOS 17, tvOS 17, *)
extension HTTPDate {
  /// Parses an HTTP-date in any of the three forms RFC 9110 §5.6.7 obliges recipients to accept, or returns `nil`.
  ///
  /// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
  /// - RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT` (a two-digit year more than 50 years ahead of `now` is taken to
  ///   be in the past century)
  /// - asctime: `Sun Nov  6 08:49:37 1994`
  ///
  /// Day names are not checked against the date.
  static func parse(_ text: some StringProtocol, now: Date = Date()) -> Date? {
    let words = String(text).split(separator: " ").map(String.init)
    switch words.count {
    case 6 where words[0].hasSuffix(",") && words[5] == "GMT":
      return date(day: words[1], month: words[2], year: words[3], time: words[4])
    case 4 where words[0].hasSuffix(",") && words[3] == "GMT":
      let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 3, parts[2].count == 2, let twoDigits = Int(parts[2]) else { return nil }
      return date(day: parts[0], month: parts[1], year: String(fullYear(twoDigits, now: now)), time: words[2])
    case 5 where !words[0].hasSuffix(","):
      return date(day: words[2], month: words[1], year: words[4], time: words[3])
    default:
      return nil
    }
  }

  /// The year ending in `twoDigits` that is not more than 50 years after the year of `now`.
  private static func fullYear(_ twoDigits: Int, now: Date) -> Int {
    let currentYear = Calendar(identifier: .gregorian).dateComponents(in: .gmt, from: now).year ?? 1970
    var year = currentYear - currentYear % 100 + twoDigits
    if year > currentYear + 50 {
      year -= 100
    }
    return year
  }

  private static func date(day: String, month: String, year: String, time: String) -> Date? {
    let clock = time.split(separator: ":", omittingEmptySubsequences: false)
    guard
      (1...2).contains(day.count), let day = digits(day),
      let month = months.firstIndex(of: month).map({ $0 + 1 }),
      year.count == 4, let year = digits(year),
      clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
      let hour = digits(clock[0]), let minute = digits(clock[1]), let second = digits(clock[2]),
      hour < 24, minute < 60, second < 61,
      (1...daysIn(month: month, year: year)).contains(day)
    else {
      return nil
    }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    // A leap second (60) is read as the next second's start, like most clocks do.
    return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
  }

  /// `text` as a number when it is nothing but ASCII digits (no sign, no spaces).
  private static func digits(_ text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
      return nil
    }
    return Int(text)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
#endif
