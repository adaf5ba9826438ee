import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

// The "Testing code that uses Courier" article's code, copied as it appears there (DocumentationSampleTests checks
// that every sample is found here), compiled and run.

struct Note: Codable, Sendable, Equatable {
  var id: Int
  var title: String
}

struct NewNote: Codable, Sendable, Equatable {
  var title: String
}

struct APIErrorBody: ServerErrorResponse, Encodable {
  var error: String
  var errorMessage: String? { error }
}

extension Endpoint where Value == [Note] {
  static var notes: Endpoint { .get("/notes") }
}

extension Endpoint where Value == Note {
  static func note(id: Int) -> Endpoint { .get("/notes/\(id)") }
  static func create(_ note: NewNote) -> Endpoint {
    .post("/notes", body: note).expect(.created).idempotencyKey()
  }
}

final class NoteStore: Sendable {
  let client: APIClient
  init(client: APIClient) { self.client = client }

  func publish(_ title: String) async throws -> Note {
    try await client.value(.create(NewNote(title: title)))
  }

  func title(of id: Int) async -> String {
    do {
      return try await client.value(.note(id: id)).title
    } catch let error as CourierError {
      return error.userMessage
    } catch {
      return "Something went wrong."
    }
  }
}

@Suite struct NoteStoreTests {
  let baseURL = URL(string: "https://api.example.test/v1")!

  func store(_ transport: StubTransport) -> NoteStore {
    NoteStore(
      client: .testing(baseURL: baseURL, transport: transport) { configuration in
        configuration.serverErrorType = APIErrorBody.self
        configuration.interceptors = [RetryInterceptor(clock: TestCallClock())]
      })
  }

  @Test func publishingSendsTheTitleOnce() async throws {
    let transport = StubTransport(
      .post("/notes").header("Idempotency-Key").reply(.json(Note(id: 7, title: "Hello"), status: .created))
    )
    let note = try await store(transport).publish("Hello")

    #expect(note == Note(id: 7, title: "Hello"))
    let sent = try #require(transport.requests.first)
    #expect(sent.path == "/v1/notes")
    #expect(try sent.decodeBody(as: NewNote.self) == NewNote(title: "Hello"))
  }

  @Test func aBusyServerIsRetried() async throws {
    let transport = StubTransport(
      .post("/notes").reply(
        .status(.serviceUnavailable, headerFields: [.retryAfter: "2"]),
        .timeout,
        .json(Note(id: 8, title: "Again"), status: .created))
    )
    let note = try await store(transport).publish("Again")

    #expect(note.id == 8)
    #expect(transport.requests.count == 3)
  }

  @Test func aMissingNoteShowsTheServersMessage() async {
    let transport = StubTransport(
      .get("/notes/:id").reply(.json(APIErrorBody(error: "That note was deleted."), status: .notFound))
    )
    #expect(await store(transport).title(of: 3) == "That note was deleted.")
  }

  @Test func titlesComeFromTheServer() async {
    let transport = StubTransport(
      .get("/notes/:id").reply { request in
        .json(Note(id: Int(request.pathParameters["id"]!)!, title: "Note \(request.pathParameters["id"]!)"))
      }
    )
    #expect(await store(transport).title(of: 4) == "Note 4")
  }
}

extension Endpoint where Value == [Note] {
  static var featured: Endpoint {
    .get("/notes/featured").sample(.json([Note(id: 1, title: "Welcome")]))
  }
}

/// The article's other samples, and checks of what its text says.
@Suite struct TestingArticleTests {
  let baseURL = URL(string: "https://api.example.test/v1")!

  /// The sample-mode snippet, run with a clock that skips its half-second delay.
  @Test func samplesForPreviews() async throws {
    try await Self.sampling()
  }

  static func sampling() async throws {
    let client = APIClient.sampling(timing: .delayed(seconds: 0.5))
    let notes = try await client.value(.featured)  // [Note(id: 1, title: "Welcome")]
    #expect(notes == [Note(id: 1, title: "Welcome")])
  }

  /// The record-and-replay snippet, compiled; `recordThenReplay` runs its shape against the demo API.
  static func recordAndReplay(fixtures: URL, devServerURL: URL) async throws {
    // Once, against a development server:
    let recorder = HARRecordingInterceptor(fileURL: fixtures.appendingPathComponent("notes.har"))
    let live = APIClient(baseURL: devServerURL) { $0.interceptors = [recorder] }
    _ = try await NoteStore(client: live).publish("Recorded")

    // In tests:
    let replay = try HARReplayTransport(contentsOf: fixtures.appendingPathComponent("notes.har"))
    let client = APIClient(baseURL: devServerURL) { $0.transport = replay }
    let note = try await NoteStore(client: client).publish("Recorded")
    _ = note
  }

  @Test func theUnmatchedMessageIsTheArticles() async {
    let transport = StubTransport(.post("/notes").header("Idempotency-Key").reply(.status(.created)))
    let client = APIClient.testing(baseURL: baseURL, transport: transport)
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.post("/notes", body: NewNote(title: "Hello")))
    }
    #expect(
      error?.detail == """
        No stub matches POST https://api.example.test/v1/notes (body: {"title":"Hello"})
        The closest stub:
          1. POST /notes [Idempotency-Key] — the header Idempotency-Key is missing
        """)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func recordThenReplay() async throws {
    let fixtures = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: fixtures) }
    try await withDemoServer { devServerURL in
      let recorder = HARRecordingInterceptor(fileURL: fixtures.appendingPathComponent("posts.har"))
      let live = APIClient(baseURL: devServerURL) { $0.interceptors = [recorder] }
      // The demo API has posts, not notes, and they also need a body: this sends its shape of the article's call.
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
