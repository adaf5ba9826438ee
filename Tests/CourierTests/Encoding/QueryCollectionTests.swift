import CourierTestSupport
import Foundation
import Testing

@testable import Courier

@Suite struct QueryCollectionTests {
  @Test func literalKeepsOrderAndDuplicates() {
    let query: QueryParameters = ["b": 1, "a": "x", "b": 2]
    #expect(query.count == 3)
    #expect(query.map(\.name) == ["b", "a", "b"])
    #expect(query.map(\.value) == [.int(1), .string("x"), .int(2)])
  }

  @Test func literalsBuildEveryCase() {
    let query: QueryParameters = [
      "s": "text", "i": -3, "d": 0.5, "t": true, "a": ["x", 1], "o": ["k": "v"], "n": nil,
    ]
    let expected: [QueryValue] = [
      .string("text"), .int(-3), .double(0.5), .bool(true), .array([.string("x"), .int(1)]),
      .object(QueryParameters([("k", .string("v"))])), .null,
    ]
    #expect(query.map(\.value) == expected)
  }

  @Test func initFromPairs() {
    let query = QueryParameters([("id", 1), ("id", 2), ("q", "x")])
    #expect(query == ["id": 1, "id": 2, "q": "x"])
    #expect(QueryParameters([]).isEmpty)
  }

  @Test func emptyQuery() throws {
    let query = QueryParameters()
    #expect(query.isEmpty)
    #expect(query.count == 0)
    #expect(query == [:])
    #expect(try URLQueryEncoder().encode(query).isEmpty)
    #expect(try URLQueryEncoder().percentEncodedString(query) == "")
  }

  @Test func subscriptGetReturnsFirstMatch() {
    let query: QueryParameters = ["a": 1, "b": 2, "a": 3]
    #expect(query["a"] == .int(1))
    #expect(query["b"] == .int(2))
    #expect(query["missing"] == nil)
  }

  @Test func subscriptSetReplacesFirstInPlaceAndDropsLaterDuplicates() {
    var query: QueryParameters = ["a": 1, "b": 2, "a": 3, "c": 4, "a": 5]
    query["a"] = "new"
    #expect(query == ["a": "new", "b": 2, "c": 4])
  }

  @Test func subscriptSetAppendsWhenMissing() {
    var query: QueryParameters = ["a": 1]
    query["z"] = [1, 2]
    #expect(query == ["a": 1, "z": [1, 2]])
  }

  @Test func subscriptSetNilRemovesAll() {
    var query: QueryParameters = ["a": 1, "b": 2, "a": 3]
    query["a"] = nil
    #expect(query == ["b": 2])
    query["missing"] = nil
    #expect(query == ["b": 2])
  }

  @Test func subscriptSetNullValueKeepsAParameterThatEncodesToNothing() throws {
    var query: QueryParameters = ["a": 1]
    query["b"] = .null
    #expect(query.count == 2)
    #expect(query["b"] == .null)
    #expect(try unescapedQuery(query) == "a=1")
  }

  @Test func appendKeepsDuplicates() throws {
    var query: QueryParameters = ["id": 1]
    query.append("id", 2)
    query.append("name", "x")
    #expect(query.map(\.name) == ["id", "id", "name"])
    #expect(try unescapedQuery(query) == "id=1&id=2&name=x")
  }

  @Test func concatenationKeepsOrder() {
    let lhs: QueryParameters = ["a": 1, "b": 2]
    let rhs: QueryParameters = ["b": 3, "c": 4]
    #expect(lhs + rhs == ["a": 1, "b": 2, "b": 3, "c": 4])
    #expect(rhs + lhs == ["b": 3, "c": 4, "a": 1, "b": 2])
    #expect(lhs + QueryParameters() == lhs)
  }

  @Test func equalityIsOrderSensitive() {
    let first: QueryParameters = ["a": 1, "b": 2]
    let second: QueryParameters = ["b": 2, "a": 1]
    #expect(first != second)
    #expect(first == ["a": 1, "b": 2])
    #expect(first != ["a": 1, "b": 3])
    #expect(first != ["a": 1])
  }

  @Test func randomAccess() {
    let query: QueryParameters = ["a": 1, "b": 2, "c": 3]
    #expect(query.startIndex == 0)
    #expect(query.endIndex == 3)
    #expect(query[1].name == "b")
    #expect(query[2].value == .int(3))
    #expect(query.reversed().map(\.name) == ["c", "b", "a"])
    #expect(query.indices == 0..<3)
  }

  @Test func encodingKeepsWrittenOrderAndDuplicates() throws {
    let query: QueryParameters = ["z": 1, "a": 2, "z": 3]
    #expect(try unescapedQuery(query) == "z=1&a=2&z=3")
  }

  @Test func encodingNestedObjectsThreeDeep() throws {
    let query: QueryParameters = ["a": ["b": ["c": ["d": "deep", "list": [1, 2]]]], "top": true]
    #expect(try unescapedQuery(query) == "a[b][c][d]=deep&a[b][c][list][]=1&a[b][c][list][]=2&top=true")
  }

  @Test func nullIsOmittedEverywhere() throws {
    let query: QueryParameters = ["a": nil, "b": ["c": nil, "d": 1], "e": [nil, 2, .null], "f": ["g": .null]]
    #expect(try unescapedQuery(query) == "b[d]=1&e[]=2")
  }

  @Test func theDocumentationExample() throws {
    var query: QueryParameters = ["page": 2, "tags": ["a", "b"], "filter": ["min": 10]]
    query["page"] = 3
    query["tags"] = nil
    query.append("sort", "name")
    #expect(try URLQueryEncoder().percentEncodedString(query) == "page=3&filter%5Bmin%5D=10&sort=name")
  }

  @Test func queryValueLiteralsInArrays() throws {
    let query: QueryParameters = ["mixed": ["s", 1, 2.5, false, .uint(UInt64.max)]]
    #expect(
      try unescapedQuery(query, URLQueryEncoder(arrayEncoding: .commaSeparated))
        == "mixed=s,1,2.5,false,18446744073709551615")
  }

  @Test func queryIsSendable() async throws {
    let query: QueryParameters = ["a": 1]
    let encoder = URLQueryEncoder()
    let result = try await Task.detached { try encoder.percentEncodedString(query) }.value
    #expect(result == "a=1")
  }
}
