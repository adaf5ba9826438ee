import CourierTestSupport
import CourierTesting
import Foundation
import Testing

@testable import Courier

/// Values held in variables go where literals go, and literals keep every form they had.
@Suite(.hangGuard) struct QueryVariableTests {
  static let client = APIClient(baseURL: URL(string: "https://api.example.com/v1")!)

  static func query<Value>(_ endpoint: Endpoint<Value>) throws -> String {
    let path = try client.httpRequest(for: endpoint).path ?? ""
    return String(path.split(separator: "?", maxSplits: 1).last ?? "").removingPercentEncoding ?? ""
  }

  @Test func everyScalarKindFromAVariable() throws {
    let text = "red shoes"
    let page = 2
    let small: UInt8 = 7
    let big = UInt64.max
    let ratio = 0.25
    let single: Float = 0.1
    let inStock = true
    let since = Date(timeIntervalSince1970: 0)
    let slice = "abc".dropFirst()
    let endpoint = Endpoint<EmptyBody>.get("/p")
      .query("q", text).query("page", page).query("small", small).query("big", big).query("ratio", ratio)
      .query("single", single).query("inStock", inStock).query("since", since).query("slice", slice)
    #expect(
      try Self.query(endpoint)
        == "q=red shoes&page=2&small=7&big=18446744073709551615&ratio=0.25&single=0.1&inStock=true"
        + "&since=1970-01-01T00:00:00Z&slice=bc")
  }

  @Test func optionalsAreLeftOutWhenNilAndArraysFollowTheArrayEncoding() throws {
    let none: Int? = nil
    let some: String? = "x"
    let tags = ["a", "b"]
    let maybeTags: [Int]? = [1]
    let endpoint = Endpoint<EmptyBody>.get("/p")
      .query("none", none).query("some", some).query("tags", tags).query("ids", maybeTags)
    #expect(try Self.query(endpoint) == "some=x&tags[]=a&tags[]=b&ids[]=1")
  }

  @Test func aQueryFromVariablesKeepsTheWrittenOrder() throws {
    let name = "Ada"
    let age = 36
    let nickname: String? = nil
    let query = QueryParameters(["name": name, "age": age, "nickname": nickname, "langs": ["en", "fr"]])
    #expect(query.map(\.name) == ["name", "age", "nickname", "langs"])
    #expect(query["nickname"] == .null)
    #expect(try Self.query(Endpoint<EmptyBody>.get("/p").query(query)) == "name=Ada&age=36&langs[]=en&langs[]=fr")
  }

  @Test func variablesInsideALiteralAndAppendedOnes() throws {
    let name = "Ada"
    var query: QueryParameters = ["name": .init(name), "filter": ["min": 10, "max": 50], "mix": ["x", 1, nil]]
    query.append("page", 3)
    let count: Int? = 4
    query.append("count", count)
    #expect(
      try Self.query(Endpoint<EmptyBody>.get("/p").query(query))
        == "name=Ada&filter[min]=10&filter[max]=50&mix[]=x&mix[]=1&page=3&count=4")
  }

  @Test func literalsStillPickTheLiteralForms() throws {
    let endpoint = Endpoint<EmptyBody>.get("/p").query("mix", ["x", 1]).query("o", ["k": "v"]).query("n", nil)
    #expect(try Self.query(endpoint) == "mix[]=x&mix[]=1&o[k]=v")
  }

  @Test func ownTypesConform() throws {
    struct ProductID: QueryValueConvertible {
      var rawValue: String
      var queryValue: QueryValue { .string(rawValue) }
    }
    let ids = [ProductID(rawValue: "p-1"), ProductID(rawValue: "p-2")]
    #expect(try Self.query(Endpoint<EmptyBody>.get("/p").query("id", ids)) == "id[]=p-1&id[]=p-2")
  }
}
