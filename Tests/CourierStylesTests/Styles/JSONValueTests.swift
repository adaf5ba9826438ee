import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import Testing

/// `JSONValue`: literals, coding, comparison and reading a body of unknown shape.
@Suite struct JSONValueTests {
  let post: JSONValue = [
    "title": "Hello", "views": 2, "rating": 4.5, "draft": false, "note": nil, "tags": ["swift", "http"],
    "author": ["id": 7],
  ]

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func literalsKeepTheirOrderAndRoundTrip() throws {
    let query = try URLQueryEncoder().percentEncodedString(post)
    #expect(query == "title=Hello&views=2&rating=4.5&draft=false&tags%5B%5D=swift&tags%5B%5D=http&author%5Bid%5D=7")

    let data = try JSONEncoder().encode(post)
    let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
    #expect(decoded == post)
    #expect(decoded["note"]?.isNull == true)
    #expect(decoded["rating"]?.doubleValue == 4.5)
    #expect(decoded["views"]?.intValue == 2 && decoded["views"]?.doubleValue == 2)
    #expect(decoded["tags"]?[1]?.stringValue == "http")
    #expect(decoded["author"]?["id"]?.intValue == 7)
    #expect(decoded["draft"]?.boolValue == false)
    #expect(decoded["missing"] == nil && decoded["tags"]?[5] == nil)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func objectsCompareAndHashWithoutRegardToOrder() {
    let one: JSONValue = ["a": 1, "b": [true, nil]]
    let other: JSONValue = ["b": [true, nil], "a": 1.0]
    #expect(one == other)
    #expect(Set([one, other]).count == 1)
    #expect(one != ["a": 1, "b": [true]])
    #expect(JSONValue.string("1") != .int(1))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func readsABodyOfUnknownShape(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let product = try await client.value(Endpoint<Product>.get("/products/6"))
      let json = try await client.value(Endpoint<JSONValue>.get("/products/6"))
      #expect(json["name"]?.stringValue == product.name)
      #expect(json["price"]?.doubleValue == product.price)
      #expect(json["tags"] == .array(product.tags.map(JSONValue.string)))
    }
  }
}
