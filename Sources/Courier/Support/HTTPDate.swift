import Foundation

/// HTTP-date (RFC 9110 §5.6.7): the IMF-fixdate form, and the obsolete RFC 850 and asctime forms on input.
///
/// Hand-written rather than a `DateFormatter`: the cache reads `Date`, `Expires` and `Last-Modified` on every hit,
/// and a formatter costs tens of microseconds to make and is not thread-safe to share. Both functions are pure.
enum HTTPDate {
  private static let weekdayNames: [[UInt8]] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map { Array($0.utf8) }
  private static let longWeekdayNames: [[UInt8]] = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ].map { Array($0.utf8) }
  private static let monthNames: [[UInt8]] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ].map { Array($0.utf8) }

  /// `text` as one of RFC 9110's three forms written exactly (IMF-fixdate, RFC 850, asctime: the given spacing,
  /// digits and `GMT`), for fields where a lenient form counts as invalid, such as `Expires` (RFC 9111 §5.3). As
  /// browsers do, names (weekday, month, `GMT`) may be in any case, and the weekday, which is redundant, is not
  /// checked against the date: `Thu Aug  8 02:01:18 2050` is 8 August 2050, a Monday.
  static func parseStrict(_ text: String, now: Date = Date()) -> Date? {
    guard let date = parse(text, now: now) else { return nil }
    let seconds = Int(date.timeIntervalSince1970)
    let days = (seconds >= 0 ? seconds : seconds - 86_399) / 86_400
    let time = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let clock = "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))"
    let monthName = String(decoding: monthNames[month - 1], as: UTF8.self)
    // Each form after its weekday, with the weekday names it takes.
    let forms: [(weekdays: [[UInt8]], rest: String)] = [
      (weekdayNames, ", \(two(day)) \(monthName) \(year) \(clock) GMT"),
      (longWeekdayNames, ", \(two(day))-\(monthName)-\(two(year % 100)) \(clock) GMT"),
      (weekdayNames, " \(monthName) \(day < 10 ? " \(day)" : "\(day)") \(clock) \(year)"),
    ]
    let bytes = Array(text.utf8)
    for form in forms {
      for weekday in form.weekdays {
        let rest = Array(form.rest.utf8)
        guard bytes.count == weekday.count + rest.count else { continue }
        if zip(bytes, weekday + rest).allSatisfy({ $0 | 0x20 == $1 | 0x20 && ($0 == $1 || isLetter($0)) }) {
          return date
        }
      }
    }
    return nil
  }

  /// Whether `byte` is an ASCII letter, the only bytes compared without case.
  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  /// Parses any of the three forms; `nil` for anything else.
  ///
  /// - `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate),
  /// - `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850; a two-digit year more than 50 years after `now` is taken as the
  ///   most recent past year ending in those digits),
  /// - `Sun Nov  6 08:49:37 1994` (asctime).
  ///
  /// Names are matched without regard to case, spaces around the value are ignored, and the weekday is checked for
  /// spelling but not against the date. `UTC` and `UT` are accepted for `GMT`.
  static func parse(_ text: String, now: Date = Date()) -> Date? {
    var text = text
    return text.withUTF8 { bytes in
      var scanner = Scanner(bytes)
      scanner.skipSpaces()
      let date = parseForms(&scanner, now: now)
      scanner.skipSpaces()
      return scanner.isAtEnd ? date : nil
    }
  }

  private static func parseForms(_ scanner: inout Scanner, now: Date) -> Date? {
    let start = scanner.index
    // IMF-fixdate or RFC 850: a weekday then a comma.
    if scanner.name(in: weekdayNames) != nil, scanner.skip(UInt8(ascii: ",")) {
      return imfFixdate(&scanner)
    }
    scanner.index = start
    if scanner.name(in: longWeekdayNames) != nil, scanner.skip(UInt8(ascii: ",")) {
      return rfc850(&scanner, now: now)
    }
    scanner.index = start
    if scanner.name(in: weekdayNames) != nil, scanner.skipSpaces() {
      return asctime(&scanner)
    }
    return nil
  }

  /// `06 Nov 1994 08:49:37 GMT`, after the comma.
  private static func imfFixdate(_ scanner: inout Scanner) -> Date? {
    guard scanner.skipSpaces(), let day = scanner.number(digits: 1...2), scanner.skip(UInt8(ascii: " ")),
      let month = scanner.name(in: monthNames), scanner.skip(UInt8(ascii: " ")),
      let year = scanner.number(digits: 4...4), scanner.skip(UInt8(ascii: " ")),
      let time = time(&scanner), scanner.skip(UInt8(ascii: " ")), scanner.zone()
    else { return nil }
    return date(year: year, month: month + 1, day: day, time: time)
  }

  /// `06-Nov-94 08:49:37 GMT`, after the comma.
  private static func rfc850(_ scanner: inout Scanner, now: Date) -> Date? {
    guard scanner.skipSpaces(), let day = scanner.number(digits: 1...2), scanner.skip(UInt8(ascii: "-")),
      let month = scanner.name(in: monthNames), scanner.skip(UInt8(ascii: "-"))
    else { return nil }
    let yearStart = scanner.index
    guard var year = scanner.number(digits: 2...4), scanner.skip(UInt8(ascii: " ")) else { return nil }
    switch scanner.index - 1 - yearStart {
    case 2: year = twoDigitYear(year, now: now)
    case 4: break
    default: return nil
    }
    guard let time = time(&scanner), scanner.skip(UInt8(ascii: " ")), scanner.zone() else { return nil }
    return date(year: year, month: month + 1, day: day, time: time)
  }

  /// `Nov  6 08:49:37 1994`, after the weekday and its spaces.
  private static func asctime(_ scanner: inout Scanner) -> Date? {
    guard let month = scanner.name(in: monthNames), scanner.skipSpaces(), let day = scanner.number(digits: 1...2),
      scanner.skip(UInt8(ascii: " ")), let time = time(&scanner), scanner.skipSpaces(),
      let year = scanner.number(digits: 4...4)
    else { return nil }
    return date(year: year, month: month + 1, day: day, time: time)
  }

  /// `08:49:37`, as seconds into the day.
  private static func time(_ scanner: inout Scanner) -> Int? {
    guard let hour = scanner.number(digits: 2...2), hour < 24, scanner.skip(UInt8(ascii: ":")),
      let minute = scanner.number(digits: 2...2), minute < 60, scanner.skip(UInt8(ascii: ":")),
      let second = scanner.number(digits: 2...2), second <= 60  // 60: a leap second
    else { return nil }
    return hour * 3600 + minute * 60 + second
  }

  /// RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is the most recent past year with those
  /// digits.
  private static func twoDigitYear(_ digits: Int, now: Date) -> Int {
    let currentYear = civil(fromDays: Int((now.timeIntervalSince1970 / 86_400).rounded(.down))).year
    var year = currentYear - currentYear % 100 + digits
    if year > currentYear + 50 { year -= 100 }
    if year <= currentYear - 50 { year += 100 }
    return year
  }

  private static func date(year: Int, month: Int, day: Int, time: Int) -> Date? {
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + time))
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
  static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shifted = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shifted + 2) / 5 + 1
    let month = shifted < 10 ? shifted + 3 : shifted - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Formats `date` as IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. Fractions of a second are dropped; dates
  /// outside years 1...9999 are clamped to them.
  static func format(_ date: Date) -> String {
    let lowest = -62_135_596_800.0  // 0001-01-01T00:00:00Z
    let highest = 253_402_300_799.0  // 9999-12-31T23:59:59Z
    let interval = date.timeIntervalSince1970
    let seconds = Int(interval.isNaN ? 0 : min(max(interval, lowest), highest).rounded(.down))
    let days = (seconds >= 0 ? seconds : seconds - 86_399) / 86_400
    let time = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    let weekday = ((days % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday
    var bytes: [UInt8] = []
    bytes.reserveCapacity(29)
    bytes += weekdayNames[weekday]
    bytes += [UInt8(ascii: ","), UInt8(ascii: " ")]
    appendDigits(day, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: " "))
    bytes += monthNames[month - 1]
    bytes.append(UInt8(ascii: " "))
    appendDigits(year, width: 4, to: &bytes)
    bytes.append(UInt8(ascii: " "))
    appendDigits(time / 3600, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(time / 60 % 60, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(time % 60, width: 2, to: &bytes)
    bytes += Array(" GMT".utf8)
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func appendDigits(_ value: Int, width: Int, to bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<width { divisor *= 10 }
    var value = value
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      value %= divisor
      divisor /= 10
    }
  }
}

/// Reads an HTTP-date's bytes from left to right.
private struct Scanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var isAtEnd: Bool { index == bytes.count }

  /// Skips one `byte`; `false` when the next byte is another.
  mutating func skip(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// Skips spaces and tabs; `false` when there were none.
  @discardableResult
  mutating func skipSpaces() -> Bool {
    let start = index
    while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
    return index > start
  }

  /// A run of `digits` decimal digits, read whole: more digits than allowed fail.
  mutating func number(digits: ClosedRange<Int>) -> Int? {
    var value = 0
    var count = 0
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
      count += 1
      guard count <= digits.upperBound else { return nil }
      value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    return count >= digits.lowerBound ? value : nil
  }

  /// The index in `names` of the word at the scanner (ASCII letters, compared without case), which must end there.
  mutating func name(in names: [[UInt8]]) -> Int? {
    var end = index
    while end < bytes.count, (bytes[end] | 0x20) >= UInt8(ascii: "a"), (bytes[end] | 0x20) <= UInt8(ascii: "z") {
      end += 1
    }
    let length = end - index
    for (position, name) in names.enumerated() where name.count == length {
      var equal = true
      for offset in 0..<length where bytes[index + offset] | 0x20 != name[offset] | 0x20 {
        equal = false
        break
      }
      if equal {
        index = end
        return position
      }
    }
    return nil
  }

  /// `GMT`, or `UTC` / `UT` as some servers write it.
  mutating func zone() -> Bool {
    name(in: Self.zones) != nil
  }

  private static let zones: [[UInt8]] = ["GMT", "UTC", "UT"].map { Array($0.utf8) }
}
