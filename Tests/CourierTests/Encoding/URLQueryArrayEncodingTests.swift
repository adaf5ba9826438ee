import CourierTestSupport
import Foundation
import Testing

@testable import Courier

@Suite struct URLQueryArrayEncodingTests {
  struct Tags: Encodable {
    var tags: [String]
    var page = 1
  }

  struct Numbers: Encodable {
    var values: [Int?]
  }

  struct Filter: Encodable {
    struct Inner: Encodable {
      var ids: [Int]
    }
    var filter: Inner
  }

  struct Item: Encodable {
    var id: Int
    var name: String?
  }

  @Test(arguments: [
    (URLQueryEncoder.ArrayEncoding.brackets, "tags[]=a&tags[]=b c&page=1"),
    (.repeated, "tags=a&tags=b c&page=1"),
    (.indexed, "tags[0]=a&tags[1]=b c&page=1"),
    (.commaSeparated, "tags=a,b c&page=1"),
    (.json, #"tags=["a","b c"]&page=1"#),
  ])
  func scalarArrays(strategy: URLQueryEncoder.ArrayEncoding, expected: String) throws {
    let encoder = URLQueryEncoder(arrayEncoding: strategy)
    #expect(try unescapedQuery(Tags(tags: ["a", "b c"]), encoder) == expected)
  }

  @Test func bracketsIsTheDefault() throws {
    #expect(URLQueryEncoder().arrayEncoding == .brackets)
    #expect(try unescapedQuery(Tags(tags: ["x"])) == "tags[]=x&page=1")
  }

  @Test(arguments: [
    (URLQueryEncoder.ArrayEncoding.brackets, "filter[ids][]=1&filter[ids][]=2"),
    (.repeated, "filter[ids]=1&filter[ids]=2"),
    (.indexed, "filter[ids][0]=1&filter[ids][1]=2"),
    (.commaSeparated, "filter[ids]=1,2"),
    (.json, #"filter[ids]=["1","2"]"#),
  ])
  func arraysInsideObjects(strategy: URLQueryEncoder.ArrayEncoding, expected: String) throws {
    let encoder = URLQueryEncoder(arrayEncoding: strategy)
    #expect(try unescapedQuery(Filter(filter: .init(ids: [1, 2])), encoder) == expected)
  }

  @Test(arguments: [
    (URLQueryEncoder.ArrayEncoding.brackets, "page=1"),
    (.repeated, "page=1"),
    (.indexed, "page=1"),
    (.commaSeparated, "tags=&page=1"),
    (.json, "tags=[]&page=1"),
  ])
  func emptyArrays(strategy: URLQueryEncoder.ArrayEncoding, expected: String) throws {
    let encoder = URLQueryEncoder(arrayEncoding: strategy)
    #expect(try unescapedQuery(Tags(tags: []), encoder) == expected)
  }

  @Test func emptyCommaSeparatedArrayIsAnEmptyValueNotAMissingOne() throws {
    let items = try URLQueryEncoder(arrayEncoding: .commaSeparated).encode(Tags(tags: []))
    #expect(items.first == URLQueryItem(name: "tags", value: ""))
  }

  @Test(arguments: [
    (URLQueryEncoder.ArrayEncoding.brackets, "values[]=1&values[]=3"),
    (.repeated, "values=1&values=3"),
    (.indexed, "values[0]=1&values[1]=3"),
    (.commaSeparated, "values=1,3"),
    (.json, #"values=["1","3"]"#),
  ])
  func nilElementsAreOmitted(strategy: URLQueryEncoder.ArrayEncoding, expected: String) throws {
    let encoder = URLQueryEncoder(arrayEncoding: strategy)
    #expect(try unescapedQuery(Numbers(values: [nil, 1, nil, 3, nil]), encoder) == expected)
  }

  @Test(arguments: [
    (URLQueryEncoder.ArrayEncoding.brackets, "page=1"),
    (.indexed, "page=1"),
    (.commaSeparated, "values=&page=1"),
    (.json, "values=[]&page=1"),
  ])
  func arrayOfOnlyNilsIsEmpty(strategy: URLQueryEncoder.ArrayEncoding, expected: String) throws {
    let query: QueryParameters = ["values": [nil, nil], "page": 1]
    #expect(try unescapedQuery(query, URLQueryEncoder(arrayEncoding: strategy)) == expected)
  }

  @Test func indexedArraysOfObjects() throws {
    let encoder = URLQueryEncoder(arrayEncoding: .indexed)
    let items = ["items": [Item(id: 1, name: "pen"), Item(id: 2, name: nil)]]
    #expect(try unescapedQuery(items, encoder) == "items[0][id]=1&items[0][name]=pen&items[1][id]=2")
  }

  @Test func indexedArraysOfArrays() throws {
    let encoder = URLQueryEncoder(arrayEncoding: .indexed)
    let matrix = ["m": [[1, 2], [], [3]]]
    #expect(try unescapedQuery(matrix, encoder) == "m[0][0]=1&m[0][1]=2&m[2][0]=3")
  }

  @Test func indexedThreeLevelsOfArrays() throws {
    let encoder = URLQueryEncoder(arrayEncoding: .indexed)
    let cube = ["c": [[["a", "b"]], [["c"]]]]
    #expect(try unescapedQuery(cube, encoder) == "c[0][0][0]=a&c[0][0][1]=b&c[1][0][0]=c")
  }

  @Test func jsonEscapesQuotesBackslashesAndControlCharacters() throws {
    let encoder = URLQueryEncoder(arrayEncoding: .json)
    let query: QueryParameters = [
      "a": [#"say "hi""#, #"back\slash"#, "line\nbreak\ttab\r", "\u{01}\u{1F}\u{08}\u{0C}", "é/👍"]
    ]
    let expected = #"a=["say \"hi\"","back\\slash","line\nbreak\ttab\r","\u0001\u001F\b\f","é/👍"]"#
    #expect(try unescapedQuery(query, encoder) == expected)
  }

  @Test func jsonOutputIsValidJSON() throws {
    let encoder = URLQueryEncoder(arrayEncoding: .json)
    let strings = [#"q"uote"#, #"\"#, "new\nline", "\u{7}", "日本"]
    let items = try encoder.encode(["a": strings])
    let value = try #require(items.first?.value)
    let decoded = try JSONDecoder().decode([String].self, from: Data(value.utf8))
    #expect(decoded == strings)
  }

  @Test func jsonWritesEveryScalarAsAString() throws {
    let encoder = URLQueryEncoder(arrayEncoding: .json, encodesBoolsAsNumbers: true)
    let query: QueryParameters = ["a": [1, true, 1.5, "x", .date(queryTestNoon)]]
    #expect(try unescapedQuery(query, encoder) == #"a=["1","1","1.5","x","2024-05-01T12:00:00Z"]"#)
  }

  @Test func commaSeparatedDoesNotEscapeCommasInsideElements() throws {
    let encoder = URLQueryEncoder(arrayEncoding: .commaSeparated)
    #expect(try unescapedQuery(["a": ["x,y", "z"]], encoder) == "a=x,y,z")
  }

  @Test func scalarOptionsApplyToArrayElements() throws {
    let encoder = URLQueryEncoder(
      arrayEncoding: .commaSeparated, encodesBoolsAsNumbers: true, dateEncoding: .secondsSince1970)
    let query: QueryParameters = [
      "flags": [true, false], "days": [.date(queryTestNoon), .date(Date(timeIntervalSince1970: 0))],
    ]
    #expect(try unescapedQuery(query, encoder) == "flags=1,0&days=1714564800,0")
  }

  @Test func topLevelArrayPropertyNextToOthersKeepsOrder() throws {
    struct Mixed: Encodable {
      var a = 1
      var list = ["x", "y"]
      var z = "end"
    }
    #expect(try unescapedQuery(Mixed()) == "a=1&list[]=x&list[]=y&z=end")
    #expect(try unescapedQuery(Mixed(), URLQueryEncoder(arrayEncoding: .repeated)) == "a=1&list=x&list=y&z=end")
  }

  @Test func indexedNumbersOnlyWrittenElements() throws {
    let encoder = URLQueryEncoder(arrayEncoding: .indexed)
    let query: QueryParameters = ["a": [nil, "x", .null, "y"]]
    #expect(try unescapedQuery(query, encoder) == "a[0]=x&a[1]=y")
  }

  @Test func setsAndOtherSequencesEncodeAsArrays() throws {
    struct Bag: Encodable {
      var ids: Set<Int>
    }
    let output = try unescapedQuery(Bag(ids: [7]), URLQueryEncoder(arrayEncoding: .commaSeparated))
    #expect(output == "ids=7")
  }
}
