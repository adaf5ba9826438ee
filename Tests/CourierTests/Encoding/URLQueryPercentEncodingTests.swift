import CourierTestSupport
import Foundation
import Testing

@testable import Courier

@Suite struct URLQueryPercentEncodingTests {
  @Test(arguments: [
    ("&", "%26"), ("=", "%3D"), ("+", "%2B"), ("#", "%23"), ("?", "%3F"), ("/", "%2F"), ("[", "%5B"),
    ("]", "%5D"), (" ", "%20"), ("%", "%25"), ("\"", "%22"), (",", "%2C"), (":", "%3A"), ("@", "%40"),
    ("!", "%21"), ("*", "%2A"), ("'", "%27"), ("(", "%28"), (")", "%29"), (";", "%3B"), ("$", "%24"),
    ("\n", "%0A"), ("\u{7F}", "%7F"), ("\u{0}", "%00"),
  ])
  func reservedCharacters(character: String, expected: String) {
    #expect(URLQueryEncoder.percentEncode(character) == expected)
  }

  @Test func unreservedCharactersAreKept() {
    let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    #expect(URLQueryEncoder.percentEncode(unreserved) == unreserved)
  }

  @Test(arguments: [
    ("é", "%C3%A9"),
    ("e\u{301}", "e%CC%81"),
    ("日本", "%E6%97%A5%E6%9C%AC"),
    ("👍🏽", "%F0%9F%91%8D%F0%9F%8F%BD"),
    ("👨‍👩‍👧", "%F0%9F%91%A8%E2%80%8D%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7"),
    ("", ""),
    ("a b+c", "a%20b%2Bc"),
    ("100%", "100%25"),
    ("%20", "%2520"),
  ])
  func unicodeAndMixedStrings(input: String, expected: String) {
    #expect(URLQueryEncoder.percentEncode(input) == expected)
  }

  @Test func spaceIsNeverAPlus() throws {
    let output = try URLQueryEncoder().percentEncodedString(["q": "a b", "r": "c+d"])
    #expect(output == "q=a%20b&r=c%2Bd")
    #expect(!output.contains("+"))
  }

  @Test func itemsWithNilAndEmptyValues() {
    let items = [
      URLQueryItem(name: "flag", value: nil),
      URLQueryItem(name: "empty", value: ""),
      URLQueryItem(name: "a b", value: "c&d"),
      URLQueryItem(name: "", value: "nameless"),
    ]
    #expect(URLQueryEncoder.percentEncodedString(items) == "flag&empty=&a%20b=c%26d&=nameless")
  }

  @Test func noItemsIsAnEmptyString() {
    #expect(URLQueryEncoder.percentEncodedString([]) == "")
  }

  @Test func bracketsInNamesAreEncoded() throws {
    struct Filter: Encodable {
      var filter = ["min": 1]
      var tags = ["x y"]
    }
    #expect(try URLQueryEncoder().percentEncodedString(Filter()) == "filter%5Bmin%5D=1&tags%5B%5D=x%20y")
  }

  @Test func percentEncodedStringOfAQuery() throws {
    let query: QueryParameters = ["q": "swift & co", "page": 1, "emoji": "👍🏽", "path": "/a?b#c"]
    #expect(
      try URLQueryEncoder().percentEncodedString(query)
        == "q=swift%20%26%20co&page=1&emoji=%F0%9F%91%8D%F0%9F%8F%BD&path=%2Fa%3Fb%23c"
    )
  }

  @Test func documentationExample() throws {
    struct Search: Encodable {
      var term: String
      var page: Int
      var filter: Filter?
      struct Filter: Encodable {
        var minPrice: Int
        var tags: [String]
      }
    }
    let encoder = URLQueryEncoder(keyEncoding: .convertToSnakeCase)
    let search = Search(term: "red shoes", page: 2, filter: .init(minPrice: 10, tags: ["sale", "new"]))
    #expect(
      try encoder.percentEncodedString(search)
        == "term=red%20shoes&page=2&filter%5Bmin_price%5D=10&filter%5Btags%5D%5B%5D=sale"
        + "&filter%5Btags%5D%5B%5D=new"
    )
  }

  @Test func loginFormExample() throws {
    struct Login: Encodable {
      var user = "ann"
      var password = "p&ss word"
    }
    #expect(try URLQueryEncoder().percentEncodedString(Login()) == "user=ann&password=p%26ss%20word")
  }

  static let roundTripCases: [[URLQueryItem]] = [
    [URLQueryItem(name: "a", value: "1"), URLQueryItem(name: "b", value: "x y")],
    [URLQueryItem(name: "q", value: "a&b=c+d#e?f/g"), URLQueryItem(name: "tags[]", value: "[x]")],
    [URLQueryItem(name: "ünï", value: "日本 👍🏽 é"), URLQueryItem(name: "pct", value: "100%25")],
    [URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "empty", value: "")],
    [URLQueryItem(name: "dup", value: "1"), URLQueryItem(name: "dup", value: "2")],
  ]

  @Test(arguments: roundTripCases)
  func roundTripThroughURLComponents(items: [URLQueryItem]) throws {
    var components = URLComponents()
    components.percentEncodedQuery = URLQueryEncoder.percentEncodedString(items)
    #expect(components.queryItems == items)
  }

  @Test func encodedValuesRoundTripThroughAURL() throws {
    struct Everything: Encodable {
      var text = "a b&c=d+e#f?g/h[i]%j"
      var unicode = "é日本👍🏽"
      var numbers = [1, -2]
      var nested = ["key with space": "v"]
      var date = queryTestNoon
    }
    let encoder = URLQueryEncoder()
    let items = try encoder.encode(Everything())
    let string = try encoder.percentEncodedString(Everything())
    let url = try #require(URL(string: "https://example.com/search?" + string))
    let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
    #expect(components.queryItems == items)
    #expect(items.map(\.name) == ["text", "unicode", "numbers[]", "numbers[]", "nested[key with space]", "date"])
  }
}
