import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite struct HARFormatTests {
  /// Records a few varied exchanges over stubs and returns the written file's URL.
  func record(to url: URL) async throws {
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
    let transport = StubTransport(
      .post("/auth/login").reply(
        .json(
          Tokens(accessToken: "acc-123456", refreshToken: "ref-123456", tokenType: "Bearer", expiresIn: 3600),
          headerFields: [.setCookie: "session=s3cr3t-cookie; Path=/; HttpOnly; Secure"])),
      .get("/search").reply(.body("plain text result", headerFields: [.contentType: "text/plain"])),
      .get("/avatar.png").reply(.data(png, headerFields: [.contentType: "image/png"])),
      .delete("/posts/:id").reply(.status(.noContent)),
      .get("/old").reply(.status(.movedPermanently, headerFields: [.location: "/new?token=abcdef"]))
    )
    let recorder = HARRecordingInterceptor(fileURL: url)
    let client = APIClient.testing(baseURL: exampleBaseURL, transport: transport) { $0.interceptors = [recorder] }
    _ = try await client.value(Endpoint<Tokens>.post("/auth/login", body: Credentials()))
    _ = try await client.value(
      Endpoint<String>.get("/search", query: ["q": "red shoes", "token": "query-secret"])
        .header(.authorization(bearer: "acc-123456")).header(.cookie, "theme=dark; sid=cookie-secret"))
    _ = try await client.value(Endpoint<Data>.get("/avatar.png"))
    try await client.send(Endpoint<EmptyBody>.delete("/posts/1").expect(.noContent))
    try await client.send(Endpoint<EmptyBody>.get("/old").redirects(.none).expect(.movedPermanently))
  }

  @Test func aWrittenArchiveIsValidJSONWithEveryRequiredHAR12Field() async throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("nested/traffic.har")
    try await record(to: url)

    let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let log = try #require(root["log"] as? [String: Any])
    #expect(log["version"] as? String == "1.2")
    let creator = try #require(log["creator"] as? [String: Any])
    #expect(creator["name"] as? String == "Courier")
    #expect(creator["version"] is String)
    let entries = try #require(log["entries"] as? [[String: Any]])
    #expect(entries.count == 5)

    for entry in entries {
      let started = try #require(entry["startedDateTime"] as? String)
      #expect(started.wholeMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/#) != nil, "\(started)")
      #expect((entry["time"] as? NSNumber).map { $0.doubleValue >= 0 } == true)
      #expect(entry["cache"] is [String: Any])
      let timings = try #require(entry["timings"] as? [String: Any])
      for phase in ["send", "wait", "receive"] {
        #expect((timings[phase] as? NSNumber).map { $0.doubleValue >= 0 } == true, "timings.\(phase)")
      }

      let request = try #require(entry["request"] as? [String: Any])
      #expect(request["method"] is String)
      #expect((request["url"] as? String)?.hasPrefix("https://api.example.test/v1/") == true)
      #expect(request["httpVersion"] as? String == "HTTP/1.1")
      for list in ["cookies", "headers", "queryString"] {
        #expect(request[list] is [[String: Any]], "request.\(list)")
      }
      for header in try #require(request["headers"] as? [[String: Any]]) {
        #expect(header["name"] is String && header["value"] is String)
      }
      #expect(request["headersSize"] is NSNumber)
      #expect(request["bodySize"] is NSNumber)
      if let postData = request["postData"] as? [String: Any] {
        #expect(postData["mimeType"] is String)
        #expect(postData["text"] is String)
      }

      let response = try #require(entry["response"] as? [String: Any])
      #expect(response["status"] is NSNumber)
      #expect(response["statusText"] is String)
      #expect(response["httpVersion"] as? String == "HTTP/1.1")
      #expect(response["cookies"] is [[String: Any]])
      #expect(response["headers"] is [[String: Any]])
      let content = try #require(response["content"] as? [String: Any])
      #expect(content["size"] is NSNumber)
      #expect(content["mimeType"] is String)
      #expect(response["redirectURL"] is String)
      #expect(response["headersSize"] is NSNumber)
      #expect(response["bodySize"] is NSNumber)
    }

    let login = try #require(entries[0]["request"] as? [String: Any])
    #expect(login["method"] as? String == "POST")
    #expect((login["postData"] as? [String: Any])?["mimeType"] as? String == "application/json")
    #expect(login["bodySize"] as? Int == 51)
    let search = try #require(entries[1]["request"] as? [String: Any])
    let query = try #require(search["queryString"] as? [[String: String]])
    #expect(query == [["name": "q", "value": "red shoes"], ["name": "token", "value": "<redacted>"]])
    #expect(search["postData"] == nil, "no body, no postData")
    #expect(search["bodySize"] as? Int == 0)
    let cookies = try #require(search["cookies"] as? [[String: Any]])
    #expect(cookies.map { $0["name"] as? String } == ["theme", "sid"])
    let deleted = try #require(entries[3]["response"] as? [String: Any])
    #expect(deleted["status"] as? Int == 204)
    #expect(deleted["statusText"] as? String == "No Content")
    let moved = try #require(entries[4]["response"] as? [String: Any])
    #expect(moved["redirectURL"] as? String == "/new?token=<redacted>")
  }

  @Test func binaryBodiesAreBase64AndTextStaysText() async throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("traffic.har")
    try await record(to: url)
    let archive = try HTTPArchive(contentsOf: url)
    let image = archive.log.entries[2].response.content
    #expect(image.encoding == "base64")
    #expect(image.mimeType == "image/png")
    #expect(image.size == 10)
    #expect(image.text == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF]).base64EncodedString())
    let text = archive.log.entries[1].response.content
    #expect(text.encoding == nil)
    #expect(text.text == "plain text result")
    let empty = archive.log.entries[3].response.content
    #expect(empty.size == 0)
    #expect(empty.text == "")
  }

  @Test func secretsAreRedactedLikeTheLogsRedactThem() async throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("traffic.har")
    try await record(to: url)
    let text = try String(contentsOf: url, encoding: .utf8)
    for secret in ["secret123", "acc-123456", "ref-123456", "query-secret", "cookie-secret", "s3cr3t-cookie", "abcdef"]
    {
      #expect(!text.contains(secret), "\(secret) leaked into the HAR file")
    }
    let archive = try HTTPArchive(contentsOf: url)
    let login = archive.log.entries[0]
    #expect(login.request.postData?.text == #"{"email":"demo@courier.dev","password":"<redacted>"}"#)
    #expect(login.response.content.text?.contains(#""accessToken":"<redacted>""#) == true)
    #expect(login.response.cookies.first?.name == "session")
    #expect(login.response.cookies.first?.value == "<redacted>")
    #expect(login.response.cookies.first?.httpOnly == true)
    let search = archive.log.entries[1].request
    #expect(search.headers.first { $0.name == "Authorization" }?.value == "Bearer <redacted>")
    #expect(search.url == "https://api.example.test/v1/search?q=red%20shoes&token=<redacted>")
  }

  @Test func withoutRedactionEverythingIsKeptAndTheArchiveRoundTrips() async throws {
    let recorder = HARRecordingInterceptor(fileURL: nil, redaction: .none)
    let client = APIClient.testing(stubs: [
      .any.reply(.json(Tokens(accessToken: "a-token", refreshToken: "r", tokenType: "Bearer", expiresIn: 1)))
    ]) {
      $0.interceptors = [recorder]
    }
    _ = try await client.value(Endpoint<Tokens>.post("/auth/login", body: Credentials()))
    let archive = recorder.archive
    #expect(archive.log.entries.first?.request.postData?.text.contains("secret123") == true)
    #expect(archive.log.entries.first?.response.content.text?.contains("a-token") == true)
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try recorder.write(to: folder.appendingPathComponent("a.har"))
    #expect(try HTTPArchive(contentsOf: folder.appendingPathComponent("a.har")) == archive)
    #expect(throws: CourierError.self) { try HTTPArchive.decode(Data("{}".utf8)) }
  }
}
