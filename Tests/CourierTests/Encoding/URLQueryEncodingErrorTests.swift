import CourierTestSupport
import Foundation
import Testing

@testable import Courier

@Suite struct URLQueryEncodingErrorTests {
  struct Search: Encodable {
    struct Filters: Encodable {
      var name = "x"
      var tags: [[String]]
    }
    var page = 1
    var filters: Filters
  }

  struct Catalog: Encodable {
    struct Item: Encodable { var id: Int }
    var items: [Item]
  }

  static let nonIndexed: [URLQueryEncoder.ArrayEncoding] = [.brackets, .repeated, .commaSeparated, .json]

  @Test(arguments: nonIndexed)
  func arraysOfArraysNeedIndexed(strategy: URLQueryEncoder.ArrayEncoding) throws {
    let value = Search(filters: .init(tags: [["a"], ["b", "c"]]))
    let encoder = URLQueryEncoder(arrayEncoding: strategy)
    let (offending, context) = try requireInvalidValue { try encoder.encode(value) }
    #expect(pathStrings(context.codingPath) == ["filters", "tags", "0"])
    #expect(pathInts(context.codingPath) == [nil, nil, 0])
    #expect(
      context.debugDescription.hasPrefix(
        #""filters[tags][0]" cannot be encoded: arrays of arrays need ArrayEncoding.indexed"#
      )
    )
    #expect(context.debugDescription.hasSuffix("but this encoder uses .\(strategy)"))
    #expect(offending as? QueryValue == ["a"])
  }

  @Test func theFirstOffendingElementIsReportedWithItsRealIndex() throws {
    let query: QueryParameters = ["filters": ["tags": ["ok", nil, ["nested"]]]]
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode(query) }
    #expect(pathStrings(context.codingPath) == ["filters", "tags", "2"])
    #expect(pathInts(context.codingPath) == [nil, nil, 2])
    #expect(context.debugDescription.contains(#""filters[tags][2]""#))
  }

  @Test(arguments: nonIndexed)
  func arraysOfObjectsNeedIndexed(strategy: URLQueryEncoder.ArrayEncoding) throws {
    let encoder = URLQueryEncoder(arrayEncoding: strategy)
    let (offending, context) = try requireInvalidValue { try encoder.encode(Catalog(items: [.init(id: 1)])) }
    #expect(pathStrings(context.codingPath) == ["items", "0"])
    #expect(pathInts(context.codingPath) == [nil, 0])
    #expect(
      context.debugDescription.hasPrefix(#""items[0]" cannot be encoded: arrays of objects need ArrayEncoding.indexed"#)
    )
    #expect(offending as? QueryValue == ["id": 1])
  }

  @Test func emptyNestedContainersStillNeedIndexed() throws {
    let query: QueryParameters = ["a": [[:]], "b": 1]
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode(query) }
    #expect(pathStrings(context.codingPath) == ["a", "0"])
    #expect(context.debugDescription.contains("arrays of objects"))
  }

  @Test func errorPathsUseOriginalKeysAndMessagesUseEncodedNames() throws {
    struct Outer: Encodable { var myFilters: Inner }
    struct Inner: Encodable { var tagGroups: [[Int]] }
    let encoder = URLQueryEncoder(keyEncoding: .convertToSnakeCase)
    let (_, context) = try requireInvalidValue { try encoder.encode(Outer(myFilters: .init(tagGroups: [[1]]))) }
    #expect(pathStrings(context.codingPath) == ["myFilters", "tagGroups", "0"])
    #expect(context.debugDescription.hasPrefix(#""my_filters[tag_groups][0]" cannot be encoded"#))
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, .signalingNaN])
  func nonFiniteDoubles(number: Double) throws {
    struct Price: Encodable {
      var currency = "EUR"
      var amount: Double
    }
    let (offending, context) = try requireInvalidValue {
      try URLQueryEncoder().encode(["price": Price(amount: number)])
    }
    #expect(pathStrings(context.codingPath) == ["price", "amount"])
    #expect(context.debugDescription.hasPrefix(#""price[amount]" cannot be encoded: Double value"#))
    #expect(context.debugDescription.contains("is not a finite number"))
    let double = try #require(offending as? Double)
    #expect(double.isNaN == number.isNaN && double.isInfinite == number.isInfinite)
  }

  @Test(arguments: [Float.nan, .infinity, -.infinity])
  func nonFiniteFloatsInArrays(number: Float) throws {
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode(["values": [1, number]]) }
    #expect(pathStrings(context.codingPath) == ["values", "1"])
    #expect(pathInts(context.codingPath) == [nil, 1])
    #expect(context.debugDescription.hasPrefix(#""values[1]" cannot be encoded: Float value"#))
  }

  @Test func nonFiniteNumbersFailUnderEveryArrayStrategy() throws {
    for strategy in [URLQueryEncoder.ArrayEncoding.brackets, .repeated, .indexed, .commaSeparated, .json] {
      let encoder = URLQueryEncoder(arrayEncoding: strategy)
      let (_, context) = try requireInvalidValue { try encoder.encode(["a": ["b": [0, Double.nan]]]) }
      #expect(pathStrings(context.codingPath) == ["a", "b", "1"])
    }
  }

  @Test func nonFiniteNumbersInQueries() throws {
    let query: QueryParameters = ["ok": 1, "bad": ["deep": .double(-.infinity)]]
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode(query) }
    #expect(pathStrings(context.codingPath) == ["bad", "deep"])
    #expect(context.debugDescription.hasPrefix(#""bad[deep]" cannot be encoded: Double value -inf"#))
  }

  @Test func decimalNaN() throws {
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode(["amount": Decimal.nan]) }
    #expect(pathStrings(context.codingPath) == ["amount"])
    #expect(context.debugDescription.hasPrefix(#""amount" cannot be encoded: Decimal.nan"#))
  }

  @Test func nonFiniteDates() throws {
    let dates = ["when": Date(timeIntervalSince1970: .infinity)]
    for encoding in [DateCodingStrategy.iso8601, .secondsSince1970, .millisecondsSince1970] {
      let (_, context) = try requireInvalidValue { try URLQueryEncoder(dateEncoding: encoding).encode(dates) }
      #expect(pathStrings(context.codingPath) == ["when"])
      #expect(context.debugDescription.contains("not finite"))
    }
  }

  @Test func throwingCustomDateEncodingIsWrapped() throws {
    struct Event: Encodable {
      struct Schedule: Encodable { var startsAt: [Date] }
      var schedule: Schedule
    }
    let encoder = URLQueryEncoder(dateEncoding: .custom { _ in throw QueryTestFailure(reason: "no dates today") })
    let (offending, context) = try requireInvalidValue {
      try encoder.encode(Event(schedule: .init(startsAt: [queryTestNoon])))
    }
    #expect(pathStrings(context.codingPath) == ["schedule", "startsAt", "0"])
    #expect(
      context.debugDescription.hasPrefix(#""schedule[startsAt][0]" cannot be encoded: the custom date encoding threw"#))
    #expect(context.debugDescription.contains("no dates today"))
    #expect(context.underlyingError as? QueryTestFailure == QueryTestFailure(reason: "no dates today"))
    #expect(offending as? Date == queryTestNoon)
  }

  @Test func throwingCustomDateEncodingInAQuery() throws {
    let encoder = URLQueryEncoder(dateEncoding: .custom { _ in throw QueryTestFailure(reason: "nope") })
    let (_, context) = try requireInvalidValue { try encoder.encode(["at": .date(queryTestNoon)] as QueryParameters) }
    #expect(pathStrings(context.codingPath) == ["at"])
    #expect(context.underlyingError is QueryTestFailure)
  }

  @Test func topLevelScalarsAreRejected() throws {
    let encoder = URLQueryEncoder()
    let url = try #require(URL(string: "https://example.com"))
    let cases: [(any Encodable, String)] = [
      (42, "Int"), ("text", "String"), (true, "Bool"), (1.5, "Double"), (queryTestNoon, "Date"),
      (url, "URL"), (UUID(), "UUID"), (Decimal(1), "Decimal"),
    ]
    for (value, typeName) in cases {
      let (_, context) = try requireInvalidValue { try encoder.encode(value) }
      #expect(context.codingPath.isEmpty)
      #expect(context.debugDescription.hasPrefix("The top-level \(typeName) cannot be encoded as a query"))
      #expect(context.debugDescription.contains("a single value"))
    }
  }

  @Test func topLevelArraysAreRejected() throws {
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode([1, 2]) }
    #expect(context.codingPath.isEmpty)
    #expect(context.debugDescription.contains("it encoded as an array"))
    #expect(throws: EncodingError.self) { try URLQueryEncoder().percentEncodedString(["a", "b"]) }
  }

  @Test func topLevelNilIsRejected() throws {
    let value: Catalog? = nil
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode(value) }
    #expect(context.codingPath.isEmpty)
    #expect(context.debugDescription.contains("it encoded as nil"))
  }

  @Test func topLevelDictionariesWithNonStringKeysThatEncodeAsArraysAreRejected() throws {
    let byUUID: [UUID: Int] = [UUID(): 1]
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode(byUUID) }
    #expect(context.debugDescription.contains("an array"))
  }

  @Test func topLevelOptionalStructIsAccepted() throws {
    let value: Catalog? = Catalog(items: [])
    #expect(try URLQueryEncoder().encode(value).isEmpty)
  }

  @Test func askingForTwoKindsOfContainerThrowsInsteadOfTrapping() throws {
    struct Confused: Encodable {
      struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
      }
      func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Key.self)
        try keyed.encode(1, forKey: Key(stringValue: "a"))
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(2)
      }
    }
    struct Holder: Encodable { var innerValue = Confused() }
    let encoder = URLQueryEncoder(keyEncoding: .convertToSnakeCase)
    let (_, context) = try requireInvalidValue { try encoder.encode(Holder()) }
    #expect(pathStrings(context.codingPath) == ["innerValue"])
    #expect(context.debugDescription.hasPrefix(#""inner_value" cannot be encoded"#))
    #expect(context.debugDescription.contains("asked for an unkeyed container after already using a keyed container"))

    let (_, topLevel) = try requireInvalidValue { try encoder.encode(Confused()) }
    #expect(topLevel.codingPath.isEmpty)
    #expect(topLevel.debugDescription.hasPrefix("The top-level value cannot be encoded"))
  }

  @Test func singleValueAfterAContainerThrows() throws {
    struct Mixed: Encodable {
      func encode(to encoder: any Encoder) throws {
        _ = encoder.unkeyedContainer()
        var single = encoder.singleValueContainer()
        try single.encode("x")
      }
    }
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode(["m": Mixed()]) }
    #expect(pathStrings(context.codingPath) == ["m"])
    #expect(context.debugDescription.contains("asked for a single value after already using an unkeyed container"))
  }

  @Test func errorsThrownByEncodableTypesPropagateUnchanged() throws {
    struct Failing: Encodable {
      func encode(to encoder: any Encoder) throws { throw QueryTestFailure(reason: "custom") }
    }
    #expect(throws: QueryTestFailure(reason: "custom")) { try URLQueryEncoder().encode(["f": Failing()]) }
  }

  @Test func int128IsRejectedWithoutTrapping() throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { return }
    #expect(throws: EncodingError.self) { try URLQueryEncoder().encode(["big": Int128.max]) }
  }
}
