import CourierTestSupport
import Foundation
import Testing

@testable import Courier

@Suite struct URLQueryScalarEncodingTests {
  struct Flags: Encodable {
    var on = true
    var off = false
  }

  struct Integers: Encodable {
    var int8Min = Int8.min
    var int8Max = Int8.max
    var int16Min = Int16.min
    var int32Min = Int32.min
    var int64Min = Int64.min
    var int64Max = Int64.max
    var intMin = Int.min
    var uint8Max = UInt8.max
    var uint16Max = UInt16.max
    var uint32Max = UInt32.max
    var uint64Max = UInt64.max
    var uintMax = UInt.max
    var zero = 0
  }

  struct Floats: Encodable {
    var half = 1.5
    var integral = 2.0
    var negative = -0.25
    var tiny = 1e-7
    var huge = 1e300
    var float: Float = 1.1
    var floatBig: Float = 1e10
  }

  struct Event: Encodable {
    var at: Date
  }

  struct Special: Encodable {
    var link: URL
    var id: UUID
    var amount: Decimal
  }

  @Test func boolsAreLiteralByDefault() throws {
    #expect(URLQueryEncoder().encodesBoolsAsNumbers == false)
    #expect(try unescapedQuery(Flags()) == "on=true&off=false")
  }

  @Test func boolsCanBeNumeric() throws {
    #expect(try unescapedQuery(Flags(), URLQueryEncoder(encodesBoolsAsNumbers: true)) == "on=1&off=0")
  }

  @Test func numericBoolsApplyInArraysAndQueries() throws {
    let query: QueryParameters = ["a": true, "b": [false, true], "c": ["d": false]]
    #expect(try unescapedQuery(query, URLQueryEncoder(encodesBoolsAsNumbers: true)) == "a=1&b[]=0&b[]=1&c[d]=0")
  }

  @Test func integerExtremes() throws {
    let expected = [
      "int8Min=-128", "int8Max=127", "int16Min=-32768", "int32Min=-2147483648",
      "int64Min=-9223372036854775808", "int64Max=9223372036854775807", "intMin=-9223372036854775808",
      "uint8Max=255", "uint16Max=65535", "uint32Max=4294967295", "uint64Max=18446744073709551615",
      "uintMax=18446744073709551615", "zero=0",
    ]
    #expect(try unescapedQuery(Integers()) == expected.joined(separator: "&"))
  }

  @Test func integerExtremesInArrays() throws {
    let values = ["a": [UInt64.max, 0]]
    #expect(try unescapedQuery(values) == "a[]=18446744073709551615&a[]=0")
    let signed = ["b": [Int64.min, Int64.max]]
    #expect(try unescapedQuery(signed) == "b[]=-9223372036854775808&b[]=9223372036854775807")
  }

  @Test func queryValueIntegers() throws {
    let query: QueryParameters = ["min": .int(.min), "max": .uint(.max)]
    #expect(try unescapedQuery(query) == "min=-9223372036854775808&max=18446744073709551615")
  }

  @Test func floatingPointUsesDescription() throws {
    #expect(
      try unescapedQuery(Floats())
        == "half=1.5&integral=2.0&negative=-0.25&tiny=1e-07&huge=1e+300&float=1.1&floatBig=1e+10"
    )
  }

  @Test func floatKeepsItsOwnShortestForm() throws {
    // Converting to Double first would give 0.10000000149011612.
    #expect(try unescapedQuery(["f": Float(0.1)]) == "f=0.1")
    #expect(try unescapedQuery(["f": [Float(0.1), Float(-2.5)]]) == "f[]=0.1&f[]=-2.5")
  }

  @Test func urlUUIDAndDecimalAreSingleValues() throws {
    let value = Special(
      link: try #require(URL(string: "https://example.com/a%20b?x=1&y=2#top")),
      id: try #require(UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")),
      amount: try #require(Decimal(string: "12345678901234567890.125"))
    )
    #expect(
      try unescapedQuery(value)
        == "link=https://example.com/a%20b?x=1&y=2#top&id=E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        + "&amount=12345678901234567890.125"
    )
  }

  @Test func decimalKeepsItsDigits() throws {
    let values = ["d": [Decimal(string: "0.1"), Decimal(string: "-3"), Decimal(string: "1e-5")].compactMap { $0 }]
    #expect(try unescapedQuery(values) == "d[]=0.1&d[]=-3&d[]=0.00001")
  }

  @Test func urlsAndUUIDsInArrays() throws {
    let urls = ["u": [URL(string: "https://a.example/x"), URL(string: "mailto:b@example.com")].compactMap { $0 }]
    #expect(
      try unescapedQuery(urls, URLQueryEncoder(arrayEncoding: .repeated))
        == "u=https://a.example/x&u=mailto:b@example.com")
    let uuid = try #require(UUID(uuidString: "00000000-0000-0000-0000-00000000000A"))
    #expect(try unescapedQuery(["ids": [uuid]]) == "ids[]=00000000-0000-0000-0000-00000000000A")
  }

  @Test func stringsAreNotTransformed() throws {
    let query: QueryParameters = ["s": "a&b=c d+e%", "empty": ""]
    #expect(
      try URLQueryEncoder().encode(query) == [
        URLQueryItem(name: "s", value: "a&b=c d+e%"), URLQueryItem(name: "empty", value: ""),
      ])
  }

  @Test func rawRepresentableEnumsUseRawValues() throws {
    enum Sort: String, Encodable { case newest, priceLow = "price_low" }
    enum Level: Int, Encodable { case low = 1, high = 3 }
    struct Options: Encodable {
      var sort = Sort.priceLow
      var level = Level.high
    }
    #expect(try unescapedQuery(Options()) == "sort=price_low&level=3")
  }

  // MARK: - Dates

  @Test func iso8601IsTheDefaultDateEncoding() throws {
    #expect(try unescapedQuery(Event(at: queryTestNoon)) == "at=2024-05-01T12:00:00Z")
  }

  @Test(arguments: [
    (0.0, "1970-01-01T00:00:00Z"),
    (-86_400, "1969-12-31T00:00:00Z"),
    (951_782_400, "2000-02-29T00:00:00Z"),
    (1_714_564_800.75, "2024-05-01T12:00:00Z"),
    (4_102_444_799, "2099-12-31T23:59:59Z"),
  ])
  func iso8601(seconds: TimeInterval, expected: String) throws {
    #expect(try unescapedQuery(Event(at: Date(timeIntervalSince1970: seconds))) == "at=\(expected)")
  }

  @Test(arguments: [
    (1_714_564_800.0, "1714564800"),
    (0, "0"),
    (-1, "-1"),
    (1_714_564_800.5, "1714564800.5"),
    (-1.5, "-1.5"),
  ])
  func secondsSince1970(seconds: TimeInterval, expected: String) throws {
    let encoder = URLQueryEncoder(dateEncoding: .secondsSince1970)
    #expect(try unescapedQuery(Event(at: Date(timeIntervalSince1970: seconds)), encoder) == "at=\(expected)")
  }

  @Test(arguments: [
    (1_714_564_800.0, "1714564800000"),
    (1_714_564_800.123, "1714564800123"),
    (0.0004, "0"),
    (0.0006, "1"),
    (-1.5, "-1500"),
  ])
  func millisecondsSince1970(seconds: TimeInterval, expected: String) throws {
    let encoder = URLQueryEncoder(dateEncoding: .millisecondsSince1970)
    #expect(try unescapedQuery(Event(at: Date(timeIntervalSince1970: seconds)), encoder) == "at=\(expected)")
  }

  @Test func formattedDates() throws {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    let encoder = URLQueryEncoder(dateEncoding: .formatted(formatter))
    #expect(try unescapedQuery(Event(at: queryTestNoon), encoder) == "at=2024-05-01 12:00")
  }

  @Test func customDates() throws {
    let encoder = URLQueryEncoder(dateEncoding: .custom { "day-\(Int($0.timeIntervalSince1970 / 86_400))" })
    #expect(try unescapedQuery(Event(at: queryTestNoon), encoder) == "at=day-19844")
  }

  @Test func dateOptionsApplyToQueryDates() throws {
    let query: QueryParameters = ["at": .date(queryTestNoon), "list": [.date(Date(timeIntervalSince1970: 1))]]
    #expect(
      try unescapedQuery(query, URLQueryEncoder(dateEncoding: .millisecondsSince1970)) == "at=1714564800000&list[]=1000"
    )
  }

  @Test func datesInsideArraysAndDictionariesAreIntercepted() throws {
    struct Log: Encodable {
      var times: [Date]
      var byName: [String: Date]
    }
    let log = Log(times: [queryTestNoon], byName: ["start": Date(timeIntervalSince1970: 0)])
    let encoder = URLQueryEncoder(dateEncoding: .secondsSince1970)
    #expect(try unescapedQuery(log, encoder) == "times[]=1714564800&byName[start]=0")
  }

  @Test func optionalDates() throws {
    struct Window: Encodable {
      var from: Date?
      var to: Date?
      var marks: [Date?]
    }
    let window = Window(from: nil, to: queryTestNoon, marks: [nil, queryTestNoon])
    #expect(
      try unescapedQuery(window, URLQueryEncoder(dateEncoding: .secondsSince1970)) == "to=1714564800&marks[]=1714564800"
    )
  }
}
