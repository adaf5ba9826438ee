import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// The demo API's echo endpoint is the witness: what the encoders produce must arrive exactly as meant.
@Suite struct EchoRoundTripTests {
  static let tricky = ["&", "=", "+", "#", "?", "/", " ", "a&b=c+d #1/2?", "é", "日本語", "👍🏽", "%20", "[]", "", "~._-"]

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func reservedCharactersUnicodeAndEmojiSurviveTheQuery(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      var query = QueryParameters()
      for (index, value) in Self.tricky.enumerated() { query.append("k\(index) \(value)", .string(value)) }
      let echo = try await client.value(Endpoint<Echo>.get("/echo/q").query(query))
      let expected = Self.tricky.enumerated().map { ("k\($0.offset) \($0.element)", $0.element) }
      #expect(echo.queryPairs.map(\.0) == expected.map(\.0))
      #expect(echo.queryPairs.map(\.1) == expected.map(\.1))
      #expect(echo.rawQuery?.contains("+") == false, "a literal + must be sent as %2B")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func everyArrayEncodingArrivesAsWritten(_ transport: TransportKind) async throws {
    struct Filter: Encodable, Sendable {
      var tags = ["a b", "c&d"]
      var flag = true
      var nested = Nested()
      struct Nested: Encodable, Sendable { var min = 1; var sort = ["name", "-price"] }
    }
    let cases: [(URLQueryEncoder.ArrayEncoding, [(String, String)])] = [
      (
        .brackets,
        [
          ("tags[]", "a b"), ("tags[]", "c&d"), ("flag", "1"), ("nested[min]", "1"), ("nested[sort][]", "name"),
          ("nested[sort][]", "-price"),
        ]
      ),
      (
        .repeated,
        [
          ("tags", "a b"), ("tags", "c&d"), ("flag", "1"), ("nested[min]", "1"), ("nested[sort]", "name"),
          ("nested[sort]", "-price"),
        ]
      ),
      (
        .indexed,
        [
          ("tags[0]", "a b"), ("tags[1]", "c&d"), ("flag", "1"), ("nested[min]", "1"), ("nested[sort][0]", "name"),
          ("nested[sort][1]", "-price"),
        ]
      ),
      (.commaSeparated, [("tags", "a b,c&d"), ("flag", "1"), ("nested[min]", "1"), ("nested[sort]", "name,-price")]),
      (
        .json,
        [("tags", #"["a b","c&d"]"#), ("flag", "1"), ("nested[min]", "1"), ("nested[sort]", #"["name","-price"]"#)]
      ),
    ]
    try await withDemoServer(transport) { client, _ in
      for (strategy, expected) in cases {
        let encoder = URLQueryEncoder(arrayEncoding: strategy, encodesBoolsAsNumbers: true)
        let echo = try await client.value(Endpoint<Echo>.get("/echo").query(Filter()).queryEncoder(encoder))
        #expect(echo.queryPairs.map(\.0) == expected.map(\.0), "\(strategy)")
        #expect(echo.queryPairs.map(\.1) == expected.map(\.1), "\(strategy)")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func pathSegmentsArriveEncoded(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let echo = try await client.value(Endpoint<Echo>.get("/echo/John Doe/café#1"))
      #expect(echo.path == "/echo/John%20Doe/caf%C3%A9%231")
      #expect(echo.rawQuery == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases, [HTTPRequest.Method.get, .post, .put, .patch, .delete])
  func methodsHeadersAndBodiesArriveExactly(_ transport: TransportKind, _ method: HTTPRequest.Method) async throws {
    try await withDemoServer(transport) { client, _ in
      var endpoint = Endpoint<Echo>("/echo/m", method: method).header("X-Trace", "t-1")
      if method != .get && method != .delete { endpoint = endpoint.body(json: ["name": "Zoë & co"]) }
      let echo = try await client.value(endpoint)
      #expect(echo.method == method.rawValue)
      #expect(echo.header("X-Trace") == "t-1")
      #expect(echo.header("User-Agent")?.contains("Courier/") == true)
      #expect(echo.header("Accept-Language") != nil)
      if method != .get && method != .delete {
        #expect(echo.body == #"{"name":"Zoë & co"}"#)
        #expect(echo.header("Content-Type") == "application/json")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func formBodyArrivesDecodable(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let form: QueryParameters = ["note": "a+b & c=d", "emoji": "👋", "list": ["x", "y"]]
      let echo = try await client.value(Endpoint<Echo>.post("/echo/form").body(form: form))
      #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
      let pairs = URLComponents(string: "?" + (echo.body ?? ""))?.queryItems?.map { ($0.name, $0.value ?? "") } ?? []
      #expect(pairs.map(\.0) == ["note", "emoji", "list[]", "list[]"])
      #expect(pairs.map(\.1) == ["a+b & c=d", "👋", "x", "y"])
    }
  }
}
