import Foundation

/// The lenient date parser of RFC 6265 §5.1.1, which reads the `Expires` dates servers send in every format.
enum CookieDate {
  /// The date `text` names, or `nil` when it names none (a missing part, a day, hour, minute or second out of range,
  /// a year before 1601, a day the month does not have).
  static func parse(_ text: String) -> Date? {
    var time: (Int, Int, Int)?
    var day: Int?
    var month: Int?
    var year: Int?
    for token in tokens(of: text) {
      if time == nil, let found = parseTime(token) {
        time = found
      } else if day == nil, let found = leadingNumber(token, digits: 1...2) {
        day = found
      } else if month == nil, let found = parseMonth(token) {
        month = found
      } else if year == nil, let found = leadingNumber(token, digits: 2...4) {
        year = found
      }
    }
    guard var year, let day, let month, let (hour, minute, second) = time else { return nil }
    if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
    guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard let date = calendar.date(from: components),
      calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
    else {
      return nil
    }
    return date
  }

  /// The date-tokens of §5.1.1: runs of bytes that are not delimiters.
  private static func tokens(of text: String) -> [Substring.UTF8View] {
    text.utf8.split { byte in
      byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
        || (0x7B...0x7E).contains(byte)
    }.map { Substring($0).utf8 }
  }

  private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

  /// A number of `digits` digits at the start of `token`, followed by nothing or a non-digit.
  private static func leadingNumber(_ token: Substring.UTF8View, digits: ClosedRange<Int>) -> Int? {
    let count = token.prefix(while: isDigit).count
    guard digits.contains(count) else { return nil }
    return token.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }

  /// `h:m:s` with one or two digits each, then nothing or a non-digit.
  private static func parseTime(_ token: Substring.UTF8View) -> (Int, Int, Int)? {
    var parts: [Int] = []
    var rest = token[...]
    for index in 0..<3 {
      let count = rest.prefix(while: isDigit).count
      guard (1...2).contains(count) else { return nil }
      parts.append(rest.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) })
      rest = rest.dropFirst(count)
      if index < 2 {
        guard rest.first == UInt8(ascii: ":") else { return nil }
        rest = rest.dropFirst()
      }
    }
    return (parts[0], parts[1], parts[2])
  }

  private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

  private static func parseMonth(_ token: Substring.UTF8View) -> Int? {
    guard token.count >= 3 else { return nil }
    let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
    return months.firstIndex(of: prefix).map { $0 + 1 }
  }
}
