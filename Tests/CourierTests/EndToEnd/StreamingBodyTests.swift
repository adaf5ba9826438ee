import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// Streamed request and response bodies, and the codings each transport advertises, over each transport.
@Suite struct StreamingBodyTests {
  /// A body of `count` chunks of `size` bytes each; chunk `i` is filled with the letter `a + i % 26`.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func chunks(count: Int, size: Int) -> AsyncStream<Data> {
    AsyncStream { continuation in
      for index in 0..<count {
        continuation.yield(Data(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: size))
      }
      continuation.finish()
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  static func expectedText(count: Int, size: Int) -> String {
    (0..<count).map { String(repeating: Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26))), count: size) }
      .joined()
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aStreamedBodyOfKnownLengthArrivesWhole(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let body = BodyStream(Self.chunks(count: 40, size: 1000), length: 40_000)
      let echo = try await client.value(
        Endpoint<Echo>.put("/echo/upload").body(.body(body, contentType: "text/plain")))
      #expect(echo.bodyLength == 40_000)
      #expect(echo.body == Self.expectedText(count: 40, size: 1000))
      #expect(echo.header("Content-Length") == "40000")
      #expect(echo.header("Transfer-Encoding") == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aStreamedBodyOfUnknownLengthArrivesWhole(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let body = BodyStream(Self.chunks(count: 7, size: 3001))
      let echo = try await client.value(
        Endpoint<Echo>.post("/echo/upload").body(.body(body, contentType: "text/plain")))
      #expect(echo.bodyLength == 7 * 3001)
      #expect(echo.body == Self.expectedText(count: 7, size: 3001))
      #expect(echo.header("Content-Type") == "text/plain")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aResponseBodyReadThroughTheTransportMatchesItsLength(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, server in
      let request = try client.httpRequest(for: Endpoint<Data>.get("/products").query(["limit": 50]))
      let (response, body) = try await server.transport.send(request, body: nil, options: TransportOptions())
      #expect(response.status == .ok)
      var received = Data()
      for try await chunk in body { received.append(chunk) }
      let page = try JSONDecoder().decode(ProductPage.self, from: received)
      #expect(page.items.count == min(50, page.total))
      if let length = body.length {
        #expect(length == Int64(received.count))
      }
      if let declared = response.headerFields[.contentLength] {
        #expect(Int(declared) == received.count)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func emptyResponsesHaveAnEmptyBody(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, server in
      for endpoint in [Endpoint<EmptyBody>.get("/empty"), Endpoint<EmptyBody>.head("/products/1")] {
        let request = try client.httpRequest(for: endpoint)
        let (response, body) = try await server.transport.send(request, body: nil, options: TransportOptions())
        #expect(response.status == (endpoint.method == .head ? .ok : .noContent))
        #expect(try await body.collect().isEmpty)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func acceptEncodingNamesWhatTheTransportDecodes(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, server in
      let echo = try await client.value(Endpoint<Echo>.get("/echo/encodings"))
      let encodings = server.transport.supportedContentEncodings
      #expect(!encodings.isEmpty)
      let advertised = echo.header("Accept-Encoding") ?? ""
      #expect(advertised.hasPrefix("\(encodings[0]);q=1.0"))
      for encoding in encodings { #expect(advertised.contains(encoding)) }
    }
  }
}
