import CourierTestSupport
import Foundation
import Testing

@testable import Courier

/// The hand-written HTTP-date parser and formatter (RFC 9110 §5.6.7).
@Suite struct HTTPDateTests {
  /// 1994-11-06T08:49:37Z, RFC 9110's example.
  static let example = Date(timeIntervalSince1970: 784_111_777)
  /// 2026-01-01T00:00:00Z, a fixed "now" for two-digit years.
  static let now = Date(timeIntervalSince1970: 1_767_225_600)

  @Test(arguments: [
    "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    "Sun Nov 06 08:49:37 1994", "Sun,  06 Nov 1994 08:49:37 GMT", "  Sun, 06 Nov 1994 08:49:37 GMT\t",
    "sun, 06 nov 1994 08:49:37 gmt", "SUNDAY, 06-NOV-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
    "Sun, 6 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 6 08:49:37 1994",
  ])
  func parsesTheThreeForms(text: String) {
    #expect(HTTPDate.parse(text, now: Self.now) == Self.example)
  }

  @Test func theWeekdayIsCheckedForSpellingOnly() {
    #expect(HTTPDate.parse("Mon, 06 Nov 1994 08:49:37 GMT") == Self.example)
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Self.example)
    #expect(HTTPDate.parse("Son, 06 Nov 1994 08:49:37 GMT") == nil)
  }

  @Test(arguments: [
    "", " ", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 94 08:49:37 GMT",
    "Sun, 32 Jan 1994 08:49:37 GMT", "Sun, 00 Jan 1994 08:49:37 GMT", "Sun, 31 Apr 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
    "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37 GMT extra",
    "Sun Nov  6 08:49:37 94", "784111777", "0", "-1", "Sun, 06 Foo 1994 08:49:37 GMT",
    "Sun, 06 Nov 19944 08:49:37 GMT", "Sunday, 06-Nov-994 08:49:37 GMT", "Sunday, 06 Nov 1994 08:49:37 GMT",
    "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT,",
    "Sun, 06 Nov 1994 08:49:37 GM", "Sun, 999999999999999999999 Nov 1994 08:49:37 GMT", "Sun,", "Sun",
    "Sun, 06 Nov 1994 08:49:3", "Sun, 06 Nov 1994 08:49:37 GMTGMT", "Sun, 06 Nov 1994 08:49:37\u{0}GMT",
    "Sun, ０６ Nov 1994 08:49:37 GMT", "Sün, 06 Nov 1994 08:49:37 GMT",
  ])
  func rejectsEverythingElse(text: String) {
    #expect(HTTPDate.parse(text, now: Self.now) == nil)
  }

  @Test func leapYearsFollowTheGregorianRules() {
    #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 951_782_400))
    #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == Date(timeIntervalSince1970: 1_709_208_000))
    #expect(HTTPDate.parse("Mon, 29 Feb 2100 00:00:00 GMT") == nil)
    #expect(HTTPDate.parse("Sat, 29 Feb 2025 00:00:00 GMT") == nil)
    #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    #expect(HTTPDate.parse("Wed, 31 Dec 1969 23:59:59 GMT") == Date(timeIntervalSince1970: -1))
    #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
  }

  @Test func aLeapSecondRollsIntoTheNextMinute() {
    #expect(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT") == Date(timeIntervalSince1970: 1_483_228_800))
  }

  @Test func twoDigitYearsAreAtMostFiftyYearsAhead() {
    let calendar = Calendar(identifier: .gregorian)
    let year = { (text: String) in
      HTTPDate.parse(text, now: Self.now).flatMap { calendar.dateComponents(in: .gmt, from: $0).year }
    }
    #expect(year("Thursday, 01-Jan-76 00:00:00 GMT") == 2076)
    #expect(year("Friday, 01-Jan-77 00:00:00 GMT") == 1977)
    #expect(year("Saturday, 01-Jan-00 00:00:00 GMT") == 2000)
    #expect(year("Sunday, 06-Nov-94 08:49:37 GMT") == 1994)
    let late = Date(timeIntervalSince1970: 3_786_912_000)  // 2090-01-01
    #expect(
      HTTPDate.parse("Monday, 01-Jan-10 00:00:00 GMT", now: late).flatMap {
        calendar.dateComponents(in: .gmt, from: $0).year
      } == 2110)
  }

  @Test func formatsIMFFixdates() {
    #expect(HTTPDate.format(Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: 915_246_245.9)) == "Sat, 02 Jan 1999 03:04:05 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: 1_792_567_680)) == "Wed, 21 Oct 2026 07:28:00 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
  }

  @Test func formatsDatesOutOfRangeWithoutCrashing() {
    #expect(HTTPDate.format(.distantFuture) == "Mon, 01 Jan 4001 00:00:00 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: 1e15)) == "Fri, 31 Dec 9999 23:59:59 GMT")
    #expect(HTTPDate.format(.distantPast) == "Mon, 01 Jan 0001 00:00:00 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: .infinity)) == "Fri, 31 Dec 9999 23:59:59 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: .nan)) == "Thu, 01 Jan 1970 00:00:00 GMT")
  }

  @Test func parsesWhatItFormatsAndAgreesWithFoundation() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT")!
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let seconds = Double(Int64.random(in: -2_000_000_000...6_000_000_000, using: &generator))
      let date = Date(timeIntervalSince1970: seconds)
      let text = HTTPDate.format(date)
      #expect(HTTPDate.parse(text) == date, "\(text)")
      let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
      let expected = String(
        format: "%@, %02d %@ %04d %02d:%02d:%02d GMT",
        ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][parts.weekday! - 1], parts.day!,
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][parts.month! - 1],
        parts.year!, parts.hour!, parts.minute!, parts.second!)
      #expect(text == expected)
    }
  }
}
