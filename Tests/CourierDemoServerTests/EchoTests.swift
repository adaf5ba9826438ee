import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

/// The decoded body of an `/echo` response.
@available(macOS 14, iOS 17, tvOS 17, *)
struct EchoReply: Decodable, Equatable {
  var method: String
  var path: String
  var rawQuery: String?
  var query: [[String]]
  var headers: [[String]]
  var body: String?
  var bodyBase64: String
  var bodyLength: Int
}

@Suite struct EchoTests {
  static let trickyQuery = "a%26b=c%3Dd&e=%F0%9F%91%8D&plus=a+b"

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func preservesRawQueryAndDecodesPairs() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/echo/a%20b?\(Self.trickyQuery)")
      #expect(response.status == .ok)
      #expect(response.isJSON)
      let echo = try response.decode(EchoReply.self)
      #expect(echo.method == "GET")
      #expect(echo.path == "/echo/a%20b")
      #expect(echo.rawQuery == Self.trickyQuery)
      #expect(echo.query == [["a&b", "c=d"], ["e", "👍"], ["plus", "a+b"]])
      #expect(echo.body == "")
      #expect(echo.bodyLength == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func queryEdgeCases() async throws {
    try await TestSupport.withRouter { client in
      let none = try await client.send("/echo")
      #expect(none.text.contains(#""rawQuery":null"#))
      let noneEcho = try none.decode(EchoReply.self)
      #expect(noneEcho.rawQuery == nil)
      #expect(noneEcho.query.isEmpty)
      #expect(noneEcho.path == "/echo")

      let empty = try await client.send("/echo/x?").decode(EchoReply.self)
      #expect(empty.rawQuery == "")
      #expect(empty.query.isEmpty)

      let odd = try await client.send("/echo/x?flag&k=&=v&k=2&bad=%zz&sp=%20").decode(EchoReply.self)
      #expect(odd.query == [["flag", ""], ["k", ""], ["", "v"], ["k", "2"], ["bad", "%zz"], ["sp", " "]])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["PUT", "PATCH", "DELETE", "POST", "OPTIONS", "PROPFIND"])
  func echoesEveryMethod(method: String) async throws {
    try await TestSupport.withRouter { client in
      let httpMethod = try #require(HTTPRequest.Method(method))
      let response = try await client.send("/echo/deep/er/path", method: httpMethod, body: "{\"k\":1}")
      #expect(response.status == .ok)
      let echo = try response.decode(EchoReply.self)
      #expect(echo.method == method)
      #expect(echo.path == "/echo/deep/er/path")
      #expect(echo.body == "{\"k\":1}")
      #expect(echo.bodyLength == 7)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func echoesHeadersInOrder() async throws {
    try await TestSupport.withRouter { client in
      let trace = try #require(HTTPFields.Element.Name("X-Trace"))
      let headers: HTTPFields = [trace: "first", .accept: "application/json", trace: "second"]
      let echo = try await client.send("/echo", method: .post, headers: headers).decode(EchoReply.self)
      #expect(echo.headers.first == ["Host", "localhost"])
      let traces = echo.headers.filter { $0[0] == "X-Trace" }
      #expect(traces == [["X-Trace", "first"], ["X-Trace", "second"]])
      let names = echo.headers.map { $0[0] }
      let first = try #require(names.firstIndex(of: "X-Trace"))
      let accept = try #require(names.firstIndex(of: "Accept"))
      let last = try #require(names.lastIndex(of: "X-Trace"))
      #expect(first < accept && accept < last)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func binaryBodyIsBase64() async throws {
    try await TestSupport.withRouter { client in
      let bytes: [UInt8] = [0xFF, 0x00, 0x01, 0xFE, 0x80]
      let response = try await client.execute(uri: "/echo/upload", method: .put, body: ByteBuffer(bytes: bytes))
      #expect(response.text.contains(#""body":null"#))
      let echo = try response.decode(EchoReply.self)
      #expect(echo.body == nil)
      #expect(echo.bodyBase64 == Data(bytes).base64EncodedString())
      #expect(echo.bodyLength == 5)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func unicodeBody() async throws {
    try await TestSupport.withRouter { client in
      let echo = try await client.send("/echo", method: .post, body: "Grüße 👋").decode(EchoReply.self)
      #expect(echo.body == "Grüße 👋")
      #expect(echo.bodyLength == "Grüße 👋".utf8.count)
      #expect(echo.bodyBase64 == Data("Grüße 👋".utf8).base64EncodedString())
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func echoIsCountedInStats() async throws {
    try await TestSupport.withRouter { client in
      _ = try await client.send("/echo/a", method: .put)
      _ = try await client.send("/echo", method: .put)
      let stats = try await client.send("/admin/stats").decode(Stats.self)
      #expect(stats.requests["PUT /echo/**"] == 2)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func echoPrefixDoesNotSwallowOtherPaths() async throws {
    try await TestSupport.withRouter { client throws in
      #expect(try await client.send("/echoes").status == .notFound)
    }
  }
}
