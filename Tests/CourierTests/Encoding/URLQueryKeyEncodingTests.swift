import CourierTestSupport
import Foundation
import Testing

@testable import Courier

@Suite struct URLQueryKeyEncodingTests {
  struct Declared: Encodable {
    var zebra = 1
    var apple = 2
    var mango = 3
  }

  struct Profile: Encodable {
    struct Address: Encodable {
      var streetName = "Main St"
      var postalCode = "12345"
    }
    var userID = 7
    var myURLValue = "x"
    var homeAddress = Address()
    var favoriteTags = ["a"]
  }

  @Test func structsKeepDeclarationOrder() throws {
    #expect(try unescapedQuery(Declared()) == "zebra=1&apple=2&mango=3")
  }

  @Test func customCodingKeysKeepTheirOrderAndNames() throws {
    struct Renamed: Encodable {
      var second = 2
      var first = 1
      enum CodingKeys: String, CodingKey {
        case first = "page-size"
        case second = "sort_by"
      }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(first, forKey: .first)
        try container.encode(second, forKey: .second)
      }
    }
    #expect(try unescapedQuery(Renamed()) == "page-size=1&sort_by=2")
    #expect(try unescapedQuery(Renamed(), URLQueryEncoder(keyEncoding: .convertToSnakeCase)) == "page-size=1&sort_by=2")
  }

  @Test func dictionaryKeysAreSorted() throws {
    let dictionary: [String: Int] = ["delta": 4, "alpha": 1, "charlie": 3, "bravo": 2]
    #expect(try unescapedQuery(dictionary) == "alpha=1&bravo=2&charlie=3&delta=4")
  }

  @Test func sortingIsStableAcrossManyKeys() throws {
    var dictionary: [String: Int] = [:]
    for number in 0..<200 { dictionary["k\(number)"] = number }
    let expected = dictionary.keys.sorted().map { "\($0)=\(dictionary[$0] ?? -1)" }.joined(separator: "&")
    #expect(try unescapedQuery(dictionary) == expected)
  }

  @Test func nestedDictionariesAreSortedButStructsAreNot() throws {
    struct Wrapper: Encodable {
      var zeta = 0
      var meta: [String: String] = ["z": "1", "a": "2", "m": "3"]
      var alpha = 0
    }
    #expect(try unescapedQuery(Wrapper()) == "zeta=0&meta[a]=2&meta[m]=3&meta[z]=1&alpha=0")
  }

  @Test func dictionariesInsideIndexedArraysAreSorted() throws {
    let value = ["rows": [["b": 1, "a": 2], ["d": 3, "c": 4]]]
    #expect(
      try unescapedQuery(value, URLQueryEncoder(arrayEncoding: .indexed))
        == "rows[0][a]=2&rows[0][b]=1&rows[1][c]=4&rows[1][d]=3")
  }

  @Test func integerDictionaryKeysSortNumerically() throws {
    let byID: [Int: String] = [10: "ten", 9: "nine", 100: "hundred", -1: "minus"]
    #expect(try unescapedQuery(["byID": byID]) == "byID[-1]=minus&byID[9]=nine&byID[10]=ten&byID[100]=hundred")
  }

  @Test func numericStringKeysSortNumericallyBeforeOtherKeys() throws {
    let dictionary: [String: Int] = ["b": 1, "10": 2, "9": 3, "a": 4, "-2": 5]
    #expect(try unescapedQuery(dictionary) == "-2=5&9=3&10=2&a=4&b=1")
  }

  @Test func optionalDictionaryIsSorted() throws {
    struct Holder: Encodable {
      var extra: [String: Int]? = ["y": 1, "x": 2]
    }
    #expect(try unescapedQuery(Holder()) == "extra[x]=2&extra[y]=1")
  }

  @Test func dictionaryLiteralArgumentIsAnOrderedQuery() throws {
    // A literal written in the call is a `QueryParameters`, so it keeps its order; a `Dictionary` value is sorted.
    #expect(joinedUnescaped(try URLQueryEncoder().encode(["b": 1, "a": 2])) == "b=1&a=2")
    let dictionary = ["b": 1, "a": 2]
    #expect(joinedUnescaped(try URLQueryEncoder().encode(dictionary)) == "a=2&b=1")
  }

  @Test(arguments: [
    ("myURLValue", "my_url_value"),
    ("userID", "user_id"),
    ("simple", "simple"),
    ("oneTwoThree", "one_two_three"),
    ("xmlHTTPRequest", "xml_http_request"),
    ("getHTTPSURLForID", "get_httpsurl_for_id"),
    // Like JSONEncoder, the algorithm assumes a lowercase first letter.
    ("URL", "u_rl"),
    ("HTTPStatusCode", "h_ttp_status_code"),
    ("aB", "a_b"),
    ("a1B2", "a1_b2"),
    ("already_snake", "already_snake"),
    ("_leading", "_leading"),
    ("trailing_", "trailing_"),
    ("ÉcoleName", "école_name"),
    ("x", "x"),
    ("", ""),
  ])
  func snakeCase(key: String, expected: String) throws {
    #expect(URLQueryEncoder.KeyEncoding.snakeCase(key) == expected)
    let encoder = URLQueryEncoder(keyEncoding: .convertToSnakeCase)
    let items = try encoder.encode([key: 1] as [String: Int])
    #expect(items.map(\.name) == [expected])
  }

  /// Encodes a single member whose key is chosen at run time.
  struct OneKey: Encodable {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    var key: String
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(1, forKey: Key(stringValue: key))
    }
  }

  @Test(arguments: [
    "myURLValue", "userID", "oneTwoThree", "URL", "HTTPStatusCode", "aB", "a1B2", "already_snake", "_leading",
    "trailing_", "ÉcoleName", "getHTTPSURLForID", "ABCdEF", "aBCD", "lower", "X1Y2Z3", "snake_Case_Mixed",
    "A", "AB", "__a__B__", "xmlHTTPRequest", "ǅemo", "myId2X", "a-bC", "a bC", "",
  ])
  func snakeCaseMatchesJSONEncoder(key: String) throws {
    let json = JSONEncoder()
    json.keyEncodingStrategy = .convertToSnakeCase
    let data = try json.encode(OneKey(key: key))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Int])
    let jsonKey = try #require(object.keys.first)
    #expect(URLQueryEncoder.KeyEncoding.snakeCase(key) == jsonKey)
  }

  @Test func snakeCaseAppliesAtEveryDepth() throws {
    let encoder = URLQueryEncoder(keyEncoding: .convertToSnakeCase)
    #expect(
      try unescapedQuery(Profile(), encoder)
        == "user_id=7&my_url_value=x&home_address[street_name]=Main St&home_address[postal_code]=12345"
        + "&favorite_tags[]=a"
    )
  }

  @Test func snakeCaseAppliesToDictionaryKeys() throws {
    let value = ["outerKey": ["innerKey": 1, "anotherKey": 2]]
    let encoder = URLQueryEncoder(keyEncoding: .convertToSnakeCase)
    #expect(try unescapedQuery(value, encoder) == "outer_key[another_key]=2&outer_key[inner_key]=1")
  }

  @Test func dictionariesAreSortedByTheirEncodedNames() throws {
    let value: [String: Int] = ["b": 1, "a": 2]
    let encoder = URLQueryEncoder(keyEncoding: .custom { $0 == "a" ? "z" : $0 })
    #expect(try unescapedQuery(value, encoder) == "b=1&z=2")
  }

  @Test func customKeyClosure() throws {
    let encoder = URLQueryEncoder(keyEncoding: .custom { "x-" + $0.uppercased() })
    #expect(
      try unescapedQuery(Profile(), encoder)
        == "x-USERID=7&x-MYURLVALUE=x&x-HOMEADDRESS[x-STREETNAME]=Main St&x-HOMEADDRESS[x-POSTALCODE]=12345"
        + "&x-FAVORITETAGS[]=a"
    )
  }

  @Test func keyEncodingIsNotAppliedToHandWrittenQueries() throws {
    let query: QueryParameters = ["pageSize": 10, "filter": ["minPrice": 5]]
    let snake = URLQueryEncoder(keyEncoding: .convertToSnakeCase)
    #expect(try unescapedQuery(query, snake) == "pageSize=10&filter[minPrice]=5")
    let custom = URLQueryEncoder(keyEncoding: .custom { _ in "broken" })
    #expect(try unescapedQuery(query, custom) == "pageSize=10&filter[minPrice]=5")
  }

  @Test func nestingThreeLevelsDeep() throws {
    struct Level3: Encodable {
      var value = "deep"
      var list = [1, 2]
    }
    struct Level2: Encodable { var c = Level3() }
    struct Level1: Encodable { var b = Level2() }
    struct Root: Encodable { var a = Level1() }
    #expect(try unescapedQuery(Root()) == "a[b][c][value]=deep&a[b][c][list][]=1&a[b][c][list][]=2")
    #expect(
      try unescapedQuery(Root(), URLQueryEncoder(arrayEncoding: .indexed))
        == "a[b][c][value]=deep&a[b][c][list][0]=1&a[b][c][list][1]=2"
    )
  }

  @Test func nilOptionalsAreOmitted() throws {
    struct Search: Encodable {
      var term: String?
      var page: Int?
      var nested: Nested?
      struct Nested: Encodable { var flag: Bool? }
    }
    #expect(try unescapedQuery(Search(term: nil, page: 2, nested: nil)) == "page=2")
    #expect(try unescapedQuery(Search(term: "x", page: nil, nested: .init(flag: nil))) == "term=x")
    #expect(try URLQueryEncoder().encode(Search()).isEmpty)
  }

  @Test func explicitEncodeNilIsOmitted() throws {
    struct Explicit: Encodable {
      enum CodingKeys: String, CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeNil(forKey: .a)
        try container.encode("1", forKey: .b)
      }
    }
    #expect(try unescapedQuery(Explicit()) == "b=1")
  }
}
