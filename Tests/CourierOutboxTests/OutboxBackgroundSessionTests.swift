import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import SwiftASN1
import Testing
import X509

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
    // Released, it lets go of the identifier: the next outbox takes its session over.
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

  /// A transport that checks servers against `serverTrustPolicy`, as one of a client with pins or a private CA does;
  /// only background uploads are sent in these tests.
  struct TrustingTransport: HTTPTransport, ServerTrustChecking {
    let serverTrustPolicy: ServerTrustPolicy
    /// As the platform's transports, it decodes compressed answers: the client asks for them in every request.
    var supportedContentEncodings: [String] { ["br", "gzip", "deflate"] }

    func send(
      _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
    ) async throws -> (HTTPResponse, BodyStream) {
      throw CourierError(.invalidRequest, "Only background uploads are sent in this test")
    }
  }

  /// Uploads a picture through `system` for a client whose transport checks servers against `policy`, stepping the
  /// system until the item is delivered or a dead letter; returns the item.
  func upload(
    through system: BackgroundSystemSimulator, policy: ServerTrustPolicy, maxAttempts: Int
  ) async throws -> OutboxItem {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let client = APIClient(baseURL: base) { $0.transport = TrustingTransport(serverTrustPolicy: policy) }
    let outbox = try testOutbox(client, path: path) {
      $0.fileBodyThreshold = 100
      $0.backgroundSessionIdentifier = "com.example.outbox"
      $0.backgroundSystem = system
      $0.observesAppLifecycle = false
      $0.maxAttempts = maxAttempts
    }
    let id = try await outbox.enqueue(picture(1), lane: "pictures")
    try await waitUntil("the upload delivered or a dead letter") {
      _ = system.step()
      let state = try await outbox.items().first { $0.id == id }?.state
      return state == .delivered || state == .deadLetter
    }
    return try #require(try await outbox.items().first { $0.id == id })
  }

  @Test func backgroundUploadsAreCheckedAgainstTheClientsRootsAndPins() async throws {
    let authority = try TestAuthority()
    let leaf = try authority.issue(for: [.dnsName("api.example.test")])
    let chain = try [leaf.certificate, authority.certificate].map { certificate in
      var serializer = DER.Serializer()
      try serializer.serialize(certificate)
      return Data(serializer.serializedBytes)
    }
    let pin = try ServerTrustPolicy.publicKeyPin(certificateDER: chain[0])
    let otherPin = try ServerTrustPolicy.publicKeyPin(
      certificateDER: {
        var serializer = DER.Serializer()
        try serializer.serialize(try TestAuthority.selfSigned().certificate)
        return Data(serializer.serializedBytes)
      }())

    // A server the system trusts whose key the client did not pin: nothing reaches it, the bearer token included.
    let server = KeyedServer()
    var system = BackgroundSystemSimulator(seed: 5, certificateChain: chain, server: server.answer)
    var item = try await upload(
      through: system, policy: ServerTrustPolicy.system.pinning("api.example.test", spkiSHA256: [otherPin]),
      maxAttempts: 1)
    #expect(item.state == .deadLetter)
    #expect(item.reason?.contains("pin check failed") == true, "\(item.reason ?? "no reason")")
    #expect(server.applied.withLock { $0.isEmpty }, "nothing sent to a server whose key is not pinned")

    // The pinned key: delivered.
    system = BackgroundSystemSimulator(seed: 5, certificateChain: chain, server: server.answer)
    item = try await upload(
      through: system, policy: ServerTrustPolicy.system.pinning("api.example.test", spkiSHA256: [pin]),
      maxAttempts: 100)
    #expect(item.state == .delivered)

    // A private CA the system does not trust, which the client's policy does: delivered; without it, refused.
    let privateCA = ServerTrustPolicy(certificates: [chain[1]], trustsSystemRoots: false)
    system = BackgroundSystemSimulator(
      seed: 5, certificateChain: chain, trustedBySystem: false, server: server.answer)
    item = try await upload(through: system, policy: privateCA, maxAttempts: 100)
    #expect(item.state == .delivered)
    system = BackgroundSystemSimulator(
      seed: 5, certificateChain: chain, trustedBySystem: false, server: server.answer)
    item = try await upload(through: system, policy: .system, maxAttempts: 1)
    #expect(item.state == .deadLetter)
    #expect(item.reason?.contains("not trusted") == true, "\(item.reason ?? "no reason")")
  }

  @Test func afterALaunchForEventsTheAppComingToTheForegroundIsHeardAndWhatWaitsIsSent() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let system = BackgroundSystemSimulator(seed: 3) { _, _ in (HTTPResponse(status: .created), Data()) }
    let transport = StubTransport(.post("/v1/notes").reply(.status(.created)))
    let center = NotificationCenter()
    // The app makes its outbox at launch, as it must to take its session's events, and does not start it.
    let outbox = try testOutbox(APIClient.testing(baseURL: base, transport: transport), path: path) {
      $0.fileBodyThreshold = 100
      $0.backgroundSessionIdentifier = "com.example.outbox"
      $0.backgroundSystem = system
      $0.notificationCenter = center
    }
    #expect(await MainActor.run { outbox.handleEventsForBackgroundURLSession("com.example.outbox") {} })
    try await waitUntil("the launch for events is taken") { await !outbox.mayClaim }
    // The user opens the app, then writes.
    center.post(name: Notification.Name("UIApplicationWillEnterForegroundNotification"), object: nil)
    try await waitUntil("the foreground is heard") { await outbox.mayClaim }
    try await outbox.enqueue(Endpoint<Data>.post("/notes").body(.data(Data("n".utf8))))
    try await outbox.waitUntilDrained()
    #expect(transport.requests.count == 1)
  }

  @Test func anOutboxThatDoesNotFollowTheLifecycleDoesNotTakeALaunchForEventsForTheBackground() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let system = BackgroundSystemSimulator(seed: 3) { _, _ in (HTTPResponse(status: .created), Data()) }
    let transport = StubTransport(.post("/v1/notes").reply(.status(.created)))
    let outbox = try outbox(system, transport: transport, path: path)
    #expect(await MainActor.run { outbox.handleEventsForBackgroundURLSession("com.example.outbox") {} })
    // Nothing would tell it of the foreground: it goes on sending.
    try await outbox.enqueue(Endpoint<Data>.post("/notes").body(.data(Data("n".utf8))))
    try await outbox.waitUntilDrained()
    #expect(transport.requests.count == 1)
    #expect(await outbox.mayClaim)
  }

  @Test func aBackgroundUploadAsksForItsAnswerUncompressed() async throws {
    let asked = Locked([String?]())
    let system = BackgroundSystemSimulator(seed: 3) { request, _ in
      asked.withLock { $0.append(request.headerFields[.acceptEncoding]) }
      return (HTTPResponse(status: .created), Data())
    }
    // The client's transport decodes compressed answers, so the items' requests ask for them.
    let item = try await upload(through: system, policy: .system, maxAttempts: 100)
    #expect(item.state == .delivered)
    // An answer that comes while the app is not running is not delivered to it, only its length: a compressed one
    // could not be told from a cut one.
    #expect(asked.withLock { $0 }.allSatisfy { $0 == "identity" } && !asked.withLock { $0 }.isEmpty)
  }
}
