import CourierTestSupport
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Courier

@Suite struct LogBodyTests {
  static let post = HTTPRequest(
    method: .post, scheme: "https", authority: "api.example.com", path: "/v1/files",
    headerFields: [.contentType: "text/plain"])

  static let echo = InterceptorNext { _, body, _ in
    (HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]), body ?? BodyStream())
  }

  @Test func longBodiesAreTruncatedWithANote() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger()) { $0.maxBodyBytes = 100 }
    let text = String(repeating: "a", count: 97) + "ééé" + String(repeating: "b", count: 400)
    _ = try await logging.intercept(
      Self.post, body: BodyStream(Data(text.utf8)), context: CallContext(), next: Self.echo)
    let line = try #require(capture.entry(startingWith: "→ body"))
    // 97 + 2 bytes fit; the next "é" would cross 100 bytes, so the cut falls before it.
    #expect(line.message == "→ body (503 bytes): \(String(repeating: "a", count: 97))é… (404 more bytes)")
    #expect(capture.entry(startingWith: "← body")?.message.hasSuffix("… (404 more bytes)") == true)
    let curl = try #require(capture.entry(startingWith: "curl "))
    #expect(curl.message.hasSuffix("# body not shown: <503 bytes>"))
  }

  @Test func bodiesWithinTheLimitAreWhole() {
    let rendering = LogBodyRendering(redactor: LogRedactor(), maxBytes: 5)
    #expect(rendering.text(for: Data("hello".utf8), contentType: nil) == "hello")
    #expect(rendering.text(for: Data("hello!".utf8), contentType: nil) == "hello… (1 more bytes)")
    #expect(rendering.text(for: BodyStream(), contentType: nil) == nil)
    #expect(rendering.text(for: nil, contentType: nil) == nil)
  }

  @Test func hugeJSONIsRedactedFromItsStartWithoutParsingAll() throws {
    let item = #"{"id":1,"token":"t-123456"},"#
    let json = "{\"items\":[" + String(repeating: item, count: 40_000) + "{}]}"
    let rendering = LogBodyRendering(redactor: LogRedactor(), maxBytes: 200)
    let text = rendering.text(for: Data(json.utf8), contentType: "application/json")
    #expect(!text.contains("t-123456"))
    #expect(text.contains(#""token":"<redacted>""#))
    #expect(text.hasPrefix(#"{"items":[{"id":1,"#))
    #expect(text.hasSuffix(" more bytes)"))
  }

  @Test func nonUTF8BodiesAreShownAsBinary() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger())
    var request = Self.post
    request.headerFields[.contentType] = "image/png"
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0xFE])
    _ = try await logging.intercept(request, body: BodyStream(png), context: CallContext(), next: Self.echo)
    #expect(capture.entry(startingWith: "→ body")?.message == "→ body (10 bytes): <binary, 10 bytes>")
    #expect(capture.entry(startingWith: "← body")?.message == "← body (10 bytes): <binary, 10 bytes>")
    #expect(capture.entry(startingWith: "curl ")?.message.hasSuffix("# body not shown: <binary, 10 bytes>") == true)
  }

  @Test func streamedBodiesAreDescribedAndNotConsumed() async throws {
    let capture = LogCapture()
    let chunks = (0..<4).map { Data(String(repeating: "\($0)", count: 1_000).utf8) }
    let transport = LoggingTestTransport(response: HTTPResponse(status: .ok)) {
      singlePassLogStream([Data("streamed ".utf8), Data("reply".utf8)])
    }
    let client = APIClient.logged(transport, LoggingInterceptor(logger: capture.logger()))
    let endpoint = Endpoint<String>.post("/upload").body(.body(singlePassLogStream(chunks), contentType: "text/plain"))
    let reply = try await client.value(endpoint)

    #expect(reply == "streamed reply")
    #expect(transport.bodies == [chunks.reduce(Data(), +)])
    #expect(capture.entry(startingWith: "→ body")?.message == "→ body: <stream, 4000 bytes>")
    #expect(capture.entry(startingWith: "← body")?.message == "← body: <stream, 14 bytes>")
    #expect(capture.entry(startingWith: "← 200")?.message.hasSuffix(" ms, 14 bytes") == true)
    #expect(capture.entry(startingWith: "curl ")?.message.hasSuffix("# body not shown: <stream, 4000 bytes>") == true)
  }

  @Test func streamsOfUnknownLengthSayStreamed() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger())
    let unknown = BodyStream(AsyncStream<Data> { $0.finish() })
    let next = InterceptorNext { _, _, _ in (HTTPResponse(status: .ok), unknown) }
    _ = try await logging.intercept(Self.post, body: unknown, context: CallContext(), next: next)
    #expect(capture.entry(startingWith: "→ body")?.message == "→ body: <stream>")
    #expect(capture.entry(startingWith: "← 200")?.message.hasSuffix(" ms, streamed") == true)
  }

  @Test func logsBodiesFalseLogsLinesButNoBody() async throws {
    let capture = LogCapture()
    let transport = LoggingTestTransport(headers: [.contentType: "text/plain"], body: "reply-body-text")
    let client = APIClient.logged(transport, LoggingInterceptor(logger: capture.logger()))
    _ = try await client.send(Endpoint<String>.post("/notes").body(.text("request-body-text")).logsBodies(false))

    #expect(capture.entry(startingWith: "→ POST") != nil)
    #expect(capture.entry(startingWith: "← 200") != nil)
    #expect(capture.entry(startingWith: "→ headers") != nil)
    #expect(capture.entry(startingWith: "→ body") == nil)
    #expect(capture.entry(startingWith: "← body") == nil)
    #expect(
      capture.entry(startingWith: "curl ")?.message.hasSuffix("# body not shown: <not logged for this endpoint>")
        == true)
    #expect(!capture.text.contains("request-body-text"))
    #expect(!capture.text.contains("reply-body-text"))
  }

  @Test func loggingFalseLogsNothingThroughAClient() async throws {
    let capture = LogCapture()
    let transport = LoggingTestTransport(status: .notFound, body: "missing")
    let client = APIClient.logged(transport, LoggingInterceptor(logger: capture.logger()))
    await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<String>.get("/quiet").logging(false))
    }
    #expect(transport.bodies.count == 1)
    #expect(capture.entries.isEmpty)
    _ = try? await client.send(Endpoint<String>.get("/loud").logging(false).logging(true))
    #expect(capture.entry(startingWith: "← 404 Not Found GET https://api.example.com/v1/loud") != nil)
  }
}
