// The code samples of the articles, compiled. Each sample is copied here as it appears in its article (less its
// `import` lines, which are at the top of this file); `DocumentationSampleTests` fails when an article's sample is not
// found here. This target is built by `swift build` and never run.
import Courier
import CourierTesting
import Foundation
import Testing

struct Post: Codable, Sendable, Equatable {
  var id: Int
  var title: String
}

struct NewPost: Codable, Sendable, Equatable {
  var title: String
}

struct APIErrorBody: ServerErrorResponse, Encodable {
  var error: String
  var errorMessage: String? { error }
}

extension Endpoint where Value == [Post] {
  static var posts: Endpoint { .get("/posts") }
}

extension Endpoint where Value == Post {
  static func post(id: Int) -> Endpoint { .get("/posts/\(id)") }
  static func create(_ post: NewPost) -> Endpoint {
    .post("/posts", body: post).expect(.created).idempotencyKey()
  }
}

final class PostStore: Sendable {
  let client: APIClient
  init(client: APIClient) { self.client = client }

  func publish(_ title: String) async throws -> Post {
    try await client.value(.create(NewPost(title: title)))
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

@Suite struct PostStoreTests {
  let baseURL = URL(string: "https://api.example.test/v1")!

  func store(_ transport: StubTransport) -> PostStore {
    PostStore(
      client: .testing(baseURL: baseURL, transport: transport) { configuration in
        configuration.serverErrorType = APIErrorBody.self
        configuration.interceptors = [RetryInterceptor(clock: TestDelayClock())]
      })
  }

  @Test func publishingSendsTheTitleOnce() async throws {
    let transport = StubTransport(
      .post("/posts").header("Idempotency-Key").reply(.json(Post(id: 7, title: "Hello"), status: .created))
    )
    let post = try await store(transport).publish("Hello")

    #expect(post == Post(id: 7, title: "Hello"))
    let sent = try #require(transport.requests.first)
    #expect(sent.path == "/v1/posts")
    #expect(try sent.decodeBody(as: NewPost.self) == NewPost(title: "Hello"))
  }

  @Test func aBusyServerIsRetried() async throws {
    let transport = StubTransport(
      .post("/posts").reply(
        .status(.serviceUnavailable, headerFields: [.retryAfter: "2"]),
        .timeout,
        .json(Post(id: 8, title: "Again"), status: .created))
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
        .json(Post(id: Int(request.pathParameters["id"]!)!, title: "Post \(request.pathParameters["id"]!)"))
      }
    )
    #expect(await store(transport).title(of: 4) == "Post 4")
  }
}

extension Endpoint where Value == [Post] {
  static var featured: Endpoint {
    .get("/posts/featured").sample(.json([Post(id: 1, title: "Welcome")]))
  }
}

enum TestingWithCourierSamples {
  /// Sample responses.
  static func sampling() async throws {
    let client = APIClient.sampling(timing: .delayed(seconds: 0.5))
    let posts = try await client.value(.featured)  // [Post(id: 1, title: "Welcome")]
    _ = posts
  }

  /// Recording and replaying.
  static func recordAndReplay(fixtures: URL, devServerURL: URL) async throws {
    // Once, against a development server:
    let recorder = HARRecordingInterceptor(fileURL: fixtures.appendingPathComponent("posts.har"))
    let live = APIClient(baseURL: devServerURL) { $0.interceptors = [recorder] }
    _ = try await PostStore(client: live).publish("Recorded")

    // In tests:
    let replay = try HARReplayTransport(contentsOf: fixtures.appendingPathComponent("posts.har"))
    let client = APIClient(baseURL: devServerURL) { $0.transport = replay }
    let post = try await PostStore(client: client).publish("Recorded")
    _ = post
  }
}
