import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// The results of a fixed sequence of calls, to compare a live run with a replay.
@available(macOS 14, iOS 17, tvOS 17, *)
struct Outcomes: Equatable {
  var login: Tokens
  var me: DemoUser
  var products: ProductPage
  var created: Post
  var createdStatus: Int
  var fetched: Post
  var missingStatus: Int?
  var missingMessage: String?
  var posts: [Post]
  var deletedStatus: Int
}

@Suite(.serialized) struct HARReplayTests {
  /// Logs in, reads the user and a filtered product page, creates a post with a JSON body, reads it back, asks for a
  /// post that does not exist (404), lists and deletes.
  @available(macOS 14, iOS 17, tvOS 17, *)
  func run(_ client: APIClient) async throws -> Outcomes {
    let login = try await client.value(
      Endpoint<Tokens>.post("/auth/login", body: Credentials()).withoutAuthentication())
    let me = try await client.value(
      Endpoint<DemoUser>.get("/users/me").header(.authorization(bearer: login.accessToken)))
    let products = try await client.value(
      Endpoint<ProductPage>.get("/products", query: ["category": "books", "limit": 2, "sort": "price"]))
    let created = try await client.send(
      Endpoint<Post>.post("/posts", body: NewPost(title: "Recorded", body: "Replayed")).expect(.created))
    let fetched = try await client.value(Endpoint<Post>.get("/posts/\(created.value.id)"))
    var missing: CourierError?
    do {
      _ = try await client.value(Endpoint<Post>.get("/posts/9999"))
    } catch let error as CourierError {
      missing = error
    }
    let posts = try await client.value(Endpoint<[Post]>.get("/posts"))
    let deleted = try await client.send(Endpoint<EmptyBody>.delete("/posts/\(created.value.id)").expect(.noContent))
    return Outcomes(
      login: login, me: me, products: products, created: created.value, createdStatus: created.status.code,
      fetched: fetched, missingStatus: missing?.status?.code, missingMessage: missing?.userMessage, posts: posts,
      deletedStatus: deleted.status.code)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  func client(_ baseURL: URL, _ configure: (inout APIClient.Configuration) -> Void) -> APIClient {
    APIClient(baseURL: baseURL) { configuration in
      configuration.serverErrorType = DemoError.self
      configure(&configuration)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aRecordingOfTheDemoServerReplaysToTheSameResults() async throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("demo.har")
    var live: Outcomes?
    var baseURL: URL?
    try await withDemoServer { url in
      baseURL = url
      let recorder = HARRecordingInterceptor(fileURL: file)
      live = try await run(client(url) { $0.interceptors = [recorder] })
    }
    let recorded = try #require(live)
    #expect(recorded.createdStatus == 201)
    #expect(recorded.missingStatus == 404)
    #expect(recorded.fetched == recorded.created)
    #expect(recorded.posts.contains(recorded.created))

    // The server is gone: every answer now comes from the file.
    let replay = try HARReplayTransport(contentsOf: file)
    let replayed = try await run(client(try #require(baseURL)) { $0.transport = replay })
    var expected = recorded
    expected.login.accessToken = "<redacted>"
    expected.login.refreshToken = "<redacted>"
    #expect(replayed == expected)
    #expect(replay.unmatchedRequests.isEmpty)
    #expect(replay.archive.log.entries.count == 8)

    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(!text.contains(recorded.login.accessToken))
    #expect(!text.contains(recorded.login.refreshToken))
    #expect(!text.contains("secret123"))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func strictReplayFailsOnRequestsNotInTheRecordingAndNamesTheClosest() async throws {
    let archive = try await recordedPostArchive()
    let replay = HARReplayTransport(archive: archive)
    let client = client(URL(string: "http://127.0.0.1:9")!) { $0.transport = replay }
    #expect(
      try await client.send(Endpoint<Post>.post("/posts", body: NewPost(title: "A", body: "B"))).status == .created)
    let reordered = Endpoint<Post>.post("/posts").body(
      Data(#"{"body":"B","title":"A"}"#.utf8), contentType: "application/json")
    #expect(try await client.send(reordered).status == .created, "JSON bodies are compared by meaning")
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<Post>.post("/posts", body: NewPost(title: "Other", body: "B")))
    }
    #expect(error?.kind == .transport)
    let lines = error?.detail.split(separator: "\n").map(String.init) ?? []
    #expect(
      lines.first
        == #"The HAR recording has no entry for POST http://127.0.0.1:9/posts (body: {"body":"B","title":"Other"})"#)
    #expect(lines.dropFirst().first == "The closest recorded requests:")
    #expect(lines.dropFirst(2).first?.contains("differs in the body") == true)
    #expect(replay.unmatchedRequests.count == 1)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func fallbackReplayHandsUnknownRequestsOn() async throws {
    let archive = try await recordedPostArchive()
    let stubs = StubTransport(.get("/posts").reply(.json([Post]())))
    let replay = HARReplayTransport(archive: archive, mode: .fallback(to: stubs))
    let client = client(URL(string: "http://127.0.0.1:9")!) { $0.transport = replay }
    #expect(
      try await client.send(Endpoint<Post>.post("/posts", body: NewPost(title: "A", body: "B"))).status == .created)
    #expect(try await client.value(Endpoint<[Post]>.get("/posts")).isEmpty)
    #expect(stubs.requests.count == 1)
    #expect(replay.unmatchedRequests.count == 1)
  }

  /// An archive holding one `POST /posts` to `http://127.0.0.1:9`, recorded over stubs.
  @available(macOS 14, iOS 17, tvOS 17, *)
  func recordedPostArchive() async throws -> HTTPArchive {
    let recorder = HARRecordingInterceptor(fileURL: nil)
    let client = client(URL(string: "http://127.0.0.1:9")!) { configuration in
      configuration.transport = StubTransport(
        .post("/posts").reply(.json(Post(id: 1, title: "A", body: "B"), status: .created)))
      configuration.interceptors = [recorder]
    }
    try await client.send(Endpoint<Post>.post("/posts", body: NewPost(title: "A", body: "B")))
    return recorder.archive
  }
}
