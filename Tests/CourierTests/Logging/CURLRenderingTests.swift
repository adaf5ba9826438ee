import CourierTestSupport
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Courier

@Suite struct CURLRenderingTests {
  let logging = LoggingInterceptor(logger: LogCapture().logger())

  @Test func postWithJSONAndAQuoteInAHeader() {
    let request = HTTPRequest(
      method: .post, scheme: "https", authority: "api.example.com", path: "/v1/notes?draft=1",
      headerFields: [.contentType: "application/json", HTTPField.Name("X-Note")!: "it's fine"])
    let body = Data(#"{"text":"Ada's note","tags":["a/b"]}"#.utf8)
    #expect(
      logging.curlCommand(for: request, body: body)
        == #"curl -X POST 'https://api.example.com/v1/notes?draft=1' -H 'Content-Type: application/json' "#
        + #"-H 'X-Note: it'\''s fine' --data-binary '{"text":"Ada'\''s note","tags":["a/b"]}'"#)
  }

  @Test func secretsAreRedactedInTheCommand() {
    let request = HTTPRequest(
      method: .put, scheme: "https", authority: "api.example.com", path: "/v1/me?token=abc&lang=en",
      headerFields: [.authorization: "Bearer abc", .contentType: "application/json", .accept: ""])
    let body = Data(#"{"name":"Ada","password":"hunter2"}"#.utf8)
    #expect(
      logging.curlCommand(for: request, body: body)
        == "curl -X PUT 'https://api.example.com/v1/me?token=<redacted>&lang=en' -H 'Authorization: Bearer <redacted>' "
        + #"-H 'Content-Type: application/json' -H 'Accept;' --data-binary '{"name":"Ada","password":"<redacted>"}'"#)
  }

  @Test func getHeadAndBinaryBodies() {
    let get = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:8080", path: "/")
    #expect(logging.curlCommand(for: get, body: nil) == "curl -X GET 'http://127.0.0.1:8080/'")
    #expect(logging.curlCommand(for: get, body: Data()) == "curl -X GET 'http://127.0.0.1:8080/'")
    let head = HTTPRequest(method: .head, scheme: "https", authority: "h.example", path: "/file")
    #expect(logging.curlCommand(for: head, body: nil) == "curl --head 'https://h.example/file'")
    let post = HTTPRequest(method: .post, scheme: "https", authority: "h.example", path: "/img")
    #expect(
      logging.curlCommand(for: post, body: Data([0xFF, 0x00]))
        == "curl -X POST 'https://h.example/img' # body not shown: <binary, 2 bytes>")
  }

  @Test func quotingSurvivesAShell() throws {
    let text = #"it's "quoted" $HOME `date` \n ''"#
    let quoted = CURLRendering.quoted(text)
    let (status, output) = ChildProcess.runBlocking("/bin/sh", ["-c", "printf '%s' \(quoted)"])
    #expect(status == 0)
    #expect(output == text)
  }

  @Test func theCommandIsLoggedAtCurlLevel() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger()) { $0.curlLevel = .info }
    let client = APIClient.logged(LoggingTestTransport(body: "{}"), logging)
    _ = try await client.send(Endpoint<Data>.post("/notes", body: ["text": "hi"]).header("X-Note", "it's"))
    let line = try #require(capture.entry(startingWith: "curl "))
    #expect(line.level == .info)
    #expect(line.message.hasPrefix("curl -X POST 'https://api.example.com/v1/notes' -H "))
    #expect(line.message.contains(#" -H 'X-Note: it'\''s'"#))
    #expect(line.message.hasSuffix(#" --data-binary '{"text":"hi"}'"#))
  }
}
