import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import CourierOutbox

/// The outbox's background path over `BackgroundSystemSimulator`: an app ended while its uploads go on, relaunched
/// for their events, and what it may and may not do then.
@Suite(.hangGuard) struct OutboxBackgroundSessionTests {
  let base = URL(string: "https://api.example.test/v1")!

  /// A server that applies each `Idempotency-Key` once and answers `201` with the key.
  final class KeyedServer: Sendable {
    let applied = Locked([String: Int]())

    func answer(_ request: HTTPRequest, _ body: Data) -> (HTTPResponse, Data) {
      let key = request.headerFields[HTTPField.Name("Idempotency-Key")!] ?? "none"
      applied.withLock { $0[key, default: 0] += 1 }
      return (HTTPResponse(status: .created), Data(key.utf8))
    }
  }

  func outbox(
    _ system: BackgroundSystemSimulator, transport: StubTransport = StubTransport(), path: String,
    launchedInBackground: Bool = false
  ) throws -> Outbox {
    let client = APIClient.testing(baseURL: base, transport: transport)
    return try testOutbox(client, path: path) {
      $0.fileBodyThreshold = 100
      $0.backgroundSessionIdentifier = "com.example.outbox"
      $0.backgroundSystem = system
      $0.observesAppLifecycle = false
      $0.startsInBackground = launchedInBackground
    }
  }

  func picture(_ seed: UInt8) -> Endpoint<Data> {
    Endpoint<Data>.put("/pictures/\(seed)").body(.data(Data(repeating: seed, count: 1000), contentType: "image/png"))
  }

  @Test func aSecondOutboxWithTheSameIdentifierIsATypedErrorUntilTheFirstIsReleased() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let system = BackgroundSystemSimulator(seed: 1) { _, _ in (HTTPResponse(status: .created), Data()) }
    var first: Outbox? = try outbox(system, path: path)
    #expect(first != nil)
    #expect {
      _ = try outbox(system, path: path)
    } throws: { error in
      (error as? OutboxError)?.kind == .invalidRequest
    }
    // Released, its session is invalidated: the next outbox makes the identifier's session again.
    first = nil
    _ = try outbox(system, path: path)
  }

  @Test func uploadsOfAnEndedAppAreRecordedAfterItsRelaunchAndOnlyThenIsTheHandlerCalled() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let server = KeyedServer()
    // Seed 3 lets the upload reach the server and its answer come back.
    let system = BackgroundSystemSimulator(seed: 3, server: server.answer)
    let transport = StubTransport(.post("/notes").reply(.status(.created)))
    var app: Outbox? = try outbox(system, transport: transport, path: path)
    let picture = try await app!.enqueue(picture(1), lane: "pictures")
    try await waitUntil("the upload handed to the system") { system.runningTaskCount == 1 }

    // The app is ended; the upload goes on and ends while the app is not running.
    await app?.stop()
    app = nil
    system.endApp()
    #expect(system.step(), "the upload reached the server")
    #expect(system.identifiersAwaitingLaunch == ["com.example.outbox"])

    // Relaunched in the background for the session's events, with a write waiting that must not go now.
    let relaunched = try outbox(system, transport: transport, path: path, launchedInBackground: true)
    let note = try await relaunched.enqueue(Endpoint<Data>.post("/notes").body(.data(Data("n".utf8))), lane: "notes")
    let calls = Locked([Int]())
    let handled = await MainActor.run {
      relaunched.handleEventsForBackgroundURLSession("com.example.outbox") {
        calls.withLock { $0.append(1) }
      }
    }
    #expect(handled)
    #expect(system.step(), "the event delivered")
    try await waitUntil("the handler called") { !calls.withLock { $0 }.isEmpty }
    #expect(calls.withLock { $0 } == [1], "called once")
    let items = try await relaunched.items()
    #expect(items.first { $0.id == picture }?.state == .delivered, "recorded before the handler was called")
    #expect(items.first { $0.id == note }?.state == .pending, "no foreground send from a background launch")
    #expect(transport.requests.isEmpty)
    #expect(server.applied.withLock { $0.values.allSatisfy { $0 == 1 } })

    // In the foreground, the waiting write goes.
    await relaunched.appBecameActive()
    try await relaunched.waitUntilDrained()
    #expect(transport.requests.map(\.request.path) == ["/v1/notes"])
  }

  @Test func theOutcomeOfAnEarlierAttemptNeverOverwritesALaterOne() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try SQLiteOutboxStore(path: path)
    let outbox = Outbox(
      client: APIClient.testing(baseURL: base, transport: StubTransport()), store: store,
      configuration: Outbox.Configuration())
    _ = outbox
    let item = NewItem(
      request: StoredRequest(
        method: .post, target: "/posts", headerFields: [:], body: Data("x".utf8), bodyDigest: "",
        idempotencyKey: "k"),
      lane: "posts", kind: "request", kindVersion: 1, after: nil, constraints: .none, enqueuedAt: Date())
    let id = try await store.insert(item)
    _ = try await store.markSending(id)
    _ = try await store.record(
      .retry(at: Date(), heldUntil: nil, reason: "cut"), for: id, lane: "posts", at: Date())
    _ = try await store.markSending(id)
    // Attempt 1's late answer: dropped, attempt 2 still sending.
    await #expect(throws: OutboxError.self) {
      try await store.record(
        .deadLetter(reason: "late", response: nil), for: id, lane: "posts", at: Date(), ifAttempt: 1)
    }
    #expect(try await store.items(in: nil).first?.state == .sending)
    _ = try await store.record(
      .deadLetter(reason: "answered", response: nil), for: id, lane: "posts", at: Date(), ifAttempt: 2)
    #expect(try await store.items(in: nil).first?.state == .deadLetter)
  }

  @Test func anItemsNetworkConstraintsGoWithItsBackgroundUpload() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let uploader = RecordingUploader()
    let client = APIClient.testing(baseURL: base, transport: StubTransport())
    let outbox = try testOutbox(client, path: path) { $0.fileBodyThreshold = 100 }
    await outbox.useBackgroundUploader(uploader)
    var constraints = OutboxConstraints()
    constraints.allowsExpensiveNetwork = false
    try await outbox.enqueue(picture(2), lane: "a", constraints: constraints)
    try await outbox.enqueue(picture(3), lane: "b")
    try await waitUntil("both handed off") { uploader.uploads.count == 2 }
    let byPath = Dictionary(uniqueKeysWithValues: uploader.uploads.map { ($0.request.path ?? "", $0.network) })
    #expect(byPath["/v1/pictures/2"] == BackgroundNetwork(allowsExpensive: false, allowsConstrained: true))
    #expect(byPath["/v1/pictures/3"] == BackgroundNetwork())
  }

  @Test func theCacheIsInvalidatedByTheUploadsAnswerNotByItsHandoff() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(
      .get("/pictures/1").reply(.data(Data("old".utf8), headerFields: [.cacheControl: "max-age=600"])))
    let client = APIClient.testing(baseURL: base, transport: transport) {
      $0.interceptors.append(CacheInterceptor(store: InMemoryCacheStore()))
    }
    let uploader = RecordingUploader()
    let outbox = try testOutbox(client, path: path) { $0.fileBodyThreshold = 100 }
    await outbox.useBackgroundUploader(uploader)
    let read = { try await client.send(Endpoint<Data>.get("/pictures/1")) }
    _ = try await read()
    let id = try await outbox.enqueue(picture(1), lane: "pictures")
    try await waitUntil("the handoff") { uploader.uploads.count == 1 }
    _ = try await read()
    #expect(transport.requests.count == 1, "handed off, the write is not made yet: the cached picture stands")

    await outbox.backgroundUploadFinished(
      id, attempt: uploader.finish(id), .answered(HTTPResponse(status: .noContent), Data()))
    _ = try await read()
    #expect(transport.requests.count == 2, "the write's answer made the cached picture stale")
  }
}
