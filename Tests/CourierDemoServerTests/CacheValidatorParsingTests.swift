import Foundation
import Testing

@testable import CourierDemoServer

/// The parsers behind conditional requests: HTTP-dates and `If-None-Match`.
@Suite struct CacheValidatorParsingTests {
  /// 1994-11-06T08:49:37Z, RFC 9110's example date.
  static let example = Date(timeIntervalSince1970: 784_111_777)

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    "Sun Nov 06 08:49:37 1994", "Sun,  06 Nov 1994 08:49:37 GMT",
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func parsesAllThreeForms(text: String) {
    #expect(HTTPDate.parse(text) == Self.example)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func parsesWhatFormatWrites() {
    for seconds in [0.0, 951_782_400, 1_792_567_680, 4_102_444_799] {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(HTTPDate.parse(HTTPDate.format(date)) == date, "\(HTTPDate.format(date))")
    }
    // 2000 and 2024 are leap years, 2100 is not.
    #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 951_782_400))
    #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == Date(timeIntervalSince1970: 1_709_208_000))
    #expect(HTTPDate.parse("Mon, 29 Feb 2100 00:00:00 GMT") == nil)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func twoDigitYearsAreAtMostFiftyYearsAhead() {
    let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    let calendar = Calendar(identifier: .gregorian)
    let year = { (text: String) in
      HTTPDate.parse(text, now: now).flatMap { calendar.dateComponents(in: .gmt, from: $0).year }
    }
    #expect(year("Thursday, 01-Jan-76 00:00:00 GMT") == 2076)
    #expect(year("Friday, 01-Jan-77 00:00:00 GMT") == 1977)
    #expect(year("Saturday, 01-Jan-00 00:00:00 GMT") == 2000)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    "", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 94 08:49:37 GMT",
    "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 32 Jan 1994 08:49:37 GMT", "Sun, 00 Jan 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
    "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
    "Sun Nov  6 08:49:37 94", "784111777", "Sun, 06 Nov 1994 08:49:37 GMT extra",
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func rejectsOtherText(text: String) {
    #expect(HTTPDate.parse(text) == nil)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func parsesIfNoneMatch() {
    let strong = EntityTag(opaque: "a", isWeak: false)
    let weak = EntityTag(opaque: "b", isWeak: true)
    #expect(IfNoneMatch(fieldValues: []) == nil)
    #expect(IfNoneMatch(fieldValues: ["*"]) == .any)
    #expect(IfNoneMatch(fieldValues: [#""a", W/"b""#]) == .tags([strong, weak]))
    #expect(IfNoneMatch(fieldValues: [#""a""#, #"W/"b""#]) == .tags([strong, weak]))
    #expect(IfNoneMatch(fieldValues: [" ,\"a\",,\tW/\"b\" , "]) == .tags([strong, weak]))
    #expect(IfNoneMatch(fieldValues: [#""x,y""#]) == .tags([EntityTag(opaque: "x,y", isWeak: false)]))
    #expect(IfNoneMatch(fieldValues: [#"a, "unterminated, W/ "b""#]) == .tags([]))
    #expect(IfNoneMatch(fieldValues: [#""""#]) == .tags([EntityTag(opaque: "", isWeak: false)]))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func weakComparisonIgnoresStrength() {
    let tags = IfNoneMatch.tags([EntityTag(opaque: "v1", isWeak: true)])
    #expect(tags.matches(EntityTag(opaque: "v1", isWeak: false)))
    #expect(tags.matches(EntityTag(opaque: "v1", isWeak: true)))
    #expect(!tags.matches(EntityTag(opaque: "V1", isWeak: true)))
    #expect(!tags.matches(nil))
    #expect(IfNoneMatch.any.matches(nil))
    #expect(EntityTag(opaque: "k-v1", isWeak: true).description == #"W/"k-v1""#)
  }
}
