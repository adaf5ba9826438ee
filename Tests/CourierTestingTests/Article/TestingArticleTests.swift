import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

// The complete example of the "Testing code that uses Courier" article, kept compiling and passing here.

private struct ArticlePost: Codable, Sendable, Equatable {
  var id: Int
  var title: String
}

private struct ArticleNewPost: Codable, Sendable, Equatable {
  var title: String
}

private struct APIErrorBody: ServerErrorResponse, Encodable {
  var error: String
  var errorMessage: String? { error }
}

extension Endpoint where Value == [ArticlePost] {
  fileprivate static var featured: Endpoint {
    .get("/posts/featured").sample(.json([ArticlePost(id: 1, title: "Welcome")]))
  }
}

extension Endpoint where Value == ArticlePost {
  fileprivate static func post(id: Int) -> Endpoint { .get("/posts/\(id)") }
  fileprivate static func create(_ post: ArticleNewPost) -> Endpoint {
    .post("/posts", body: post).expect(.created).idempotencyKey()
  }
}

private final class PostStore: Sendable {
  let client: APIClient
  init(client: APIClient) { self.client = client }

  func publish(_ title: String) async throws -> ArticlePost {
    try await client.value(.create(ArticleNewPost(title: title)))
  }

  func title(of id: Int) async -> String {
    do {
      return try await client.value(.post(id: id)).title
    } catch let error as CourierError {
      return error.userMessage
    } catch {
      return "Something went wrong."
    }
  }
}

@Suite struct TestingArticleTests {
  let baseURL = URL(string: "https://api.example.test/v1")!

  fileprivate func store(_ transport: StubTransport) -> PostStore {
    PostStore(
      client: .testing(baseURL: baseURL, transport: transport) { configuration in
        configuration.serverErrorType = APIErrorBody.self
        configuration.interceptors = [RetryInterceptor(clock: TestDelayClock())]
      })
  }

  @Test func publishingSendsTheTitleOnce() async throws {
    let transport = StubTransport(
      .post("/posts").header("Idempotency-Key").reply(.json(ArticlePost(id: 7, title: "Hello"), status: .created))
    )
    let post = try await store(transport).publish("Hello")

    #expect(post == ArticlePost(id: 7, title: "Hello"))
    let sent = try #require(transport.requests.first)
    #expect(sent.path == "/v1/posts")
    #expect(try sent.decodeBody(as: ArticleNewPost.self) == ArticleNewPost(title: "Hello"))
  }

  @Test func aBusyServerIsRetried() async throws {
    let transport = StubTransport(
      .post("/posts").reply(
        .status(.serviceUnavailable, headerFields: [.retryAfter: "2"]),
        .timeout,
        .json(ArticlePost(id: 8, title: "Again"), status: .created))
    )
    let post = try await store(transport).publish("Again")

    #expect(post.id == 8)
    #expect(transport.requests.count == 3)
  }

  @Test func aMissingPostShowsTheServersMessage() async {
    let transport = StubTransport(
      .get("/posts/:id").reply(.json(APIErrorBody(error: "That post was deleted."), status: .notFound))
    )
    #expect(await store(transport).title(of: 3) == "That post was deleted.")
  }

  @Test func titlesComeFromTheServer() async {
    let transport = StubTransport(
      .get("/posts/:id").reply { request in
        .json(ArticlePost(id: Int(request.pathParameters["id"]!)!, title: "Post \(request.pathParameters["id"]!)"))
      }
    )
    #expect(await store(transport).title(of: 4) == "Post 4")
  }

  @Test func theUnmatchedMessageIsTheArticles() async {
    let transport = StubTransport(.post("/posts").header("Idempotency-Key").reply(.status(.created)))
    let client = APIClient.testing(baseURL: baseURL, transport: transport)
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<Empty>.post("/posts", body: ArticleNewPost(title: "Hello")))
    }
    #expect(
      error?.detail == """
        No stub matches POST https://api.example.test/v1/posts (body: {"title":"Hello"})
        The closest stub:
          1. POST /posts [Idempotency-Key] — the header Idempotency-Key is missing
        """)
  }

  @Test func samplesForPreviews() async throws {
    let client = APIClient.sampling(timing: .delayed(seconds: 0.5), clock: TestDelayClock())
    #expect(try await client.value(.featured) == [ArticlePost(id: 1, title: "Welcome")])
  }

  @Test func recordThenReplay() async throws {
    let fixtures = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: fixtures) }
    try await withDemoServer { devServerURL in
      let recorder = HARRecordingInterceptor(fileURL: fixtures.appendingPathComponent("posts.har"))
      let live = APIClient(baseURL: devServerURL) { $0.interceptors = [recorder] }
      // The demo API's posts also need a body, so this sends its shape of the article's call.
      let create = Endpoint<Post>.post("/posts", body: NewPost(title: "Recorded", body: "Hi")).expect(.created)
        .idempotencyKey()
      let recorded = try await live.value(create)

      let replay = try HARReplayTransport(contentsOf: fixtures.appendingPathComponent("posts.har"))
      let client = APIClient(baseURL: devServerURL) { $0.transport = replay }
      let post = try await client.value(create.idempotencyKey())
      #expect(post == recorded)
    }
  }
}
