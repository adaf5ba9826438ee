#if canImport(Hummingbird)
import Foundation

/// HTTP-dates in the IMF-fixdate form of RFC 9110 §5.6.7, e.g. `Wed, 21 Oct 2026 07:28:00 GMT`.
@available(macOS 14, iOS 17, tvOS 17, *)
enum HTTPDate {
  private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  /// Month abbreviations, January first.
  static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// `date` as an IMF-fixdate; fractions of a second are dropped.
  static func format(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
    let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
    let month = months[((parts.month ?? 1) - 1) % 12]
    let day = pad(parts.day ?? 1, 2)
    let time = [parts.hour, parts.minute, parts.second].map { pad($0 ?? 0, 2) }.joined(separator: ":")
    return "\(weekday), \(day) \(month) \(pad(parts.year ?? 1970, 4)) \(time) GMT"
  }

  /// The whole second at or after `seconds` from `now`, so a client waiting until then waits at least that long.
  static func secondsAhead(_ seconds: Int, from now: Date = Date()) -> Date {
    Date(timeIntervalSince1970: (now.timeIntervalSince1970 + Double(seconds)).rounded(.up))
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
#endif
