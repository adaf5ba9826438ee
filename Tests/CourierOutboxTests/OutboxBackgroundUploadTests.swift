import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import CourierOutbox

/// An uploader that keeps what it was given, as the system's background session would, and reports what it holds.
final class RecordingUploader: BackgroundUploader {
  struct Upload: Sendable {
    var request: HTTPRequest
    var body: Data
    var item: OutboxItem.ID
    var attempt: Int
    var network: BackgroundNetwork
  }

  private let state: Locked<(uploads: [Upload], held: Set<OutboxItem.ID>, refusals: Int)>

  init(holding held: Set<OutboxItem.ID> = []) {
    state = Locked(([], held, 0))
  }

  var uploads: [Upload] { state.withLock { $0.uploads } }

  /// Refuses the next `count` uploads, as a session invalidated meanwhile does.
  func refuse(_ count: Int) { state.withLock { $0.refusals = count } }

  func upload(
    _ request: HTTPRequest, fromFile file: URL, item: OutboxItem.ID, attempt: Int, network: BackgroundNetwork
  ) async throws {
    let body = try Data(contentsOf: file)
    try state.withLock {
      if $0.refusals > 0 {
        $0.refusals -= 1
        throw CourierError(.invalidRequest, "The background session was invalidated")
      }
      $0.uploads.append(Upload(request: request, body: body, item: item, attempt: attempt, network: network))
      $0.held.insert(item)
    }
  }

  func itemsInFlight() async -> Set<OutboxItem.ID> { state.withLock { $0.held } }

  /// The system finished the upload of `item`; returns the attempt it was for.
  @discardableResult
  func finish(_ item: OutboxItem.ID) -> Int {
    state.withLock {
      _ = $0.held.remove(item)
      return $0.uploads.last { $0.item == item }?.attempt ?? 0
    }
  }
}

/// Items whose body is a file handed to uploads the system carries on, their outcomes recorded as attempts' are,
/// across relaunches; the Apple session itself is glue over this.
@Suite(.hangGuard) struct OutboxBackgroundUploadTests {
  let base = URL(string: "https://api.example.test/v1")!

  func outbox(
    _ transport: StubTransport, path: String, network: SwitchedNetwork = SwitchedNetwork(online: true),
    inAppExtension: Bool = false
  ) throws -> Outbox {
    let client = APIClient.testing(baseURL: base, transport: transport) {
      $0.defaultHeaders.append(HTTPField(name: .authorization, value: "Bearer fresh-token"))
    }
    // Backoffs of half their ceiling, on a clock that does not move: a retried item waits for a drain.
    return try testOutbox(client, network: network, path: path) {
      $0.fileBodyThreshold = 1000
      $0.isAppExtension = inAppExtension
    }
  }

  func picture(_ seed: UInt8) -> Data { Data((0..<5000).map { UInt8(truncatingIfNeeded: $0) &+ seed }) }

  func answer(_ status: HTTPResponse.Status) -> BackgroundUploadOutcome {
    .answered(HTTPResponse(status: status), Data(#"{"ok":true}"#.utf8))
  }

  @Test func aLargeItemIsHandedOffWithFreshCredentialsAndItsLaneWaitsForTheOutcome() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.post("/posts").reply(.status(.created)), .post("/profile").reply(.status(.ok)))
    let uploader = RecordingUploader()
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, path: path, network: network)
    await outbox.useBackgroundUploader(uploader)
    let large = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/1/image").body(.data(picture(1), contentType: "image/png")), lane: "posts")
    let after = try await outbox.enqueue(Endpoint<Data>.post("/posts").body(.data(Data("b".utf8))), lane: "posts")
    try await outbox.enqueue(Endpoint<Data>.post("/profile").body(.data(Data("c".utf8))), lane: "profile")
    network.set(online: true)
    await outbox.drain()
    try await waitUntil("the upload and the other lane's request") {
      uploader.uploads.count == 1 && transport.requests.count == 1
    }

    let upload = try #require(uploader.uploads.first)
    #expect(upload.item == large)
    #expect(upload.body == picture(1))
    #expect(upload.request.headerFields[.authorization] == "Bearer fresh-token", "credentials added when it leaves")
    let key = try #require(try await outbox.items().first { $0.id == large }?.idempotencyKey)
    #expect(upload.request.headerFields[HTTPField.Name("Idempotency-Key")!] == "\"\(key)\"")
    #expect(upload.request.headerFields[HandoffTransport.header] == nil)
    #expect(upload.request.path == "/v1/posts/1/image")
    #expect(transport.requests.map(\.request.path) == ["/v1/profile"], "the other lane flows; this one waits")
    #expect(try await outbox.items().first { $0.id == large }?.state == .sending)

    #expect(upload.attempt == 1)
    let attempt = uploader.finish(large)
    await outbox.backgroundUploadFinished(large, attempt: attempt, answer(.created))
    try await outbox.waitUntilDrained()
    let items = try await outbox.items()
    #expect(items.first { $0.id == large }?.state == .delivered)
    #expect(items.first { $0.id == large }?.responseStatus == .created)
    #expect(items.first { $0.id == after }?.state == .delivered, "the lane went on after the outcome")
    #expect(transport.requests.map(\.request.path) == ["/v1/profile", "/v1/posts"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: path + ".bodies").isEmpty)
    // A second outcome for the same item (a duplicate event) changes nothing.
    await outbox.backgroundUploadFinished(large, attempt: attempt, answer(.internalServerError))
    #expect(try await outbox.items().first { $0.id == large }?.state == .delivered)
  }

  @Test func aFailedUploadIsHandedOffAgainWithItsKeyAndARefusalIsADeadLetter() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let uploader = RecordingUploader()
    let outbox = try outbox(StubTransport(), path: path)
    await outbox.useBackgroundUploader(uploader)
    let id = try await outbox.enqueue(Endpoint<Data>.put("/posts/1/image").body(.data(picture(2))))
    try await waitUntil("the first upload") { uploader.uploads.count == 1 }
    await outbox.backgroundUploadFinished(
      id, attempt: uploader.finish(id), .failed(CourierError(.noConnection, "offline")))
    #expect(try await outbox.items().first?.state == .pending, "waits out a backoff")
    await outbox.drain()
    try await waitUntil("the second upload") { uploader.uploads.count == 2 }
    let keys = uploader.uploads.map { $0.request.headerFields[HTTPField.Name("Idempotency-Key")!] }
    #expect(keys[0] == keys[1], "the same key on every attempt")
    #expect(try await outbox.items().first?.attempts == 2)
    // The first attempt's outcome arriving late is not the second's.
    await outbox.backgroundUploadFinished(id, attempt: 1, answer(.created))
    #expect(try await outbox.items().first?.state == .sending)
    await outbox.backgroundUploadFinished(id, attempt: uploader.finish(id), answer(.badRequest))
    let item = try #require(try await outbox.items().first)
    #expect(item.state == .deadLetter)
    #expect(item.responseStatus == .badRequest)
    #expect(try FileManager.default.contentsOfDirectory(atPath: path + ".bodies").count == 1, "kept to requeue")
  }

  @Test func anUploadTheSystemRefusesToTakeIsTriedAgainNotADeadLetter() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let uploader = RecordingUploader()
    uploader.refuse(1)
    let outbox = try outbox(StubTransport(), path: path)
    await outbox.useBackgroundUploader(uploader)
    let id = try await outbox.enqueue(Endpoint<Data>.put("/posts/1/image").body(.data(picture(3))))
    try await waitUntil("the refusal recorded") { try await outbox.items().first?.reason != nil }
    let refused = try #require(try await outbox.items().first)
    try #require(refused.state == .pending, "a session that refused the upload says nothing about the request")
    #expect(refused.reason?.contains("did not take the item's background upload") == true, "\(refused.reason ?? "")")
    #expect(uploader.uploads.isEmpty)
    await outbox.drain()
    try await waitUntil("the upload taken the second time") { uploader.uploads.count == 1 }
    #expect(uploader.uploads.first?.item == id)
    #expect(uploader.uploads.first?.attempt == 2)
    #expect(try await outbox.items().first?.state == .sending)
  }

  @Test func afterARelaunchAnUploadTheSystemHoldsWaitsAndOneItLostIsHandedOffAgain() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = RecordingUploader()
    let before = try outbox(StubTransport(), path: path)
    await before.useBackgroundUploader(first)
    let held = try await before.enqueue(Endpoint<Data>.put("/a").body(.data(picture(3))), lane: "a")
    let lost = try await before.enqueue(Endpoint<Data>.put("/b").body(.data(picture(4))), lane: "b")
    try await waitUntil("both uploads") { first.uploads.count == 2 }
    await before.stop()

    // The app was ended; the system still holds one upload, and lost the other.
    let second = RecordingUploader(holding: [held])
    let after = try outbox(StubTransport(), path: path)
    await after.useBackgroundUploader(second)
    await after.start()
    try await waitUntil("the lost upload handed off again") { second.uploads.count == 1 }
    #expect(second.uploads.map(\.item) == [lost], "only the upload the system lost is handed off again")
    let key = { (upload: RecordingUploader.Upload) in upload.request.headerFields[HTTPField.Name("Idempotency-Key")!] }
    #expect(key(second.uploads[0]) == key(first.uploads.first { $0.item == lost }!))
    // The held upload's outcome arrives after the relaunch.
    await after.backgroundUploadFinished(held, attempt: 1, answer(.created))
    #expect(second.uploads.last?.attempt == 2, "the lost upload's second attempt")
    await after.backgroundUploadFinished(lost, attempt: 1, answer(.created))
    #expect(
      try await after.items().first { $0.id == lost }?.state == .sending, "the lost attempt's outcome is not this one's"
    )
    await after.backgroundUploadFinished(lost, attempt: second.finish(lost), answer(.created))
    try await after.waitUntilDrained()
    #expect(try await after.items().map(\.state) == [.delivered, .delivered])
    #expect(second.uploads.count == 1)
  }

  @Test func anAppExtensionSharingTheDatabaseLeavesTheAppsUploadsToTheApp() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let uploader = RecordingUploader()
    let app = try outbox(StubTransport(), path: path)
    await app.useBackgroundUploader(uploader)
    let picture = try await app.enqueue(Endpoint<Data>.put("/a").body(.data(picture(3))), lane: "a")
    try await waitUntil("the upload handed off") { uploader.uploads.count == 1 }

    // The app's extension opens the same database (an app group); it has no background session, and does not take
    // the app's upload for lost.
    let transport = StubTransport(.put("/a").reply(.status(.created)), .post("/notes").reply(.status(.created)))
    let shared = try outbox(transport, path: path, inAppExtension: true)
    let note = try await shared.enqueue(Endpoint<Data>.post("/notes").body(.data(Data("n".utf8))), lane: "notes")
    try await waitUntil("the extension's note delivered") {
      try await shared.items().first { $0.id == note }?.state == .delivered
    }
    #expect(transport.requests.map(\.request.path) == ["/v1/notes"], "the app's upload is not sent again at once")
    #expect(try await shared.store.handedOffItems().map(\.item.id) == [picture])

    // The app records its upload's outcome.
    await app.backgroundUploadFinished(picture, attempt: uploader.finish(picture), answer(.created))
    #expect(try await app.items().first { $0.id == picture }?.state == .delivered)
    #expect(uploader.uploads.count == 1)
  }

  @Test func withoutAnUploaderLargeItemsGoInTheForegroundFromTheirFiles() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.put("/a").reply(.status(.created)))
    let outbox = try outbox(transport, path: path)
    try await outbox.enqueue(Endpoint<Data>.put("/a").body(.data(picture(5))))
    try await outbox.waitUntilDrained()
    #expect(transport.requests.first?.body == picture(5))
    #expect(transport.requests.first?.request.headerFields[HandoffTransport.header] == nil)
  }

  @Test func aRedirectPolicyABackgroundSessionCannotKeepIsRefusedWhenTheOutboxIsMade() throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = Outbox.Configuration()
    configuration.backgroundSessionIdentifier = "com.example.outbox"
    for policy in [RedirectPolicy.none, .follow(max: 5, removingAcrossOrigins: [HTTPField.Name("X-Api-Key")!])] {
      let client = APIClient.testing(baseURL: base, transport: StubTransport()) { $0.redirects = policy }
      #expect {
        try Outbox(client: client, path: path, configuration: configuration)
      } throws: { error in
        let error = error as? OutboxError
        return error?.kind == .invalidRequest && error?.message.contains("follows redirects") == true
      }
      // Without background uploads, any policy is kept: every call goes through Courier.
      _ = try Outbox(client: client, path: path)
    }
    _ = try Outbox(
      client: APIClient.testing(baseURL: base, transport: StubTransport()), path: path, configuration: configuration)
  }

  @MainActor
  @Test func theAppsHandlerIsCalledOnceEveryEventIsDeliveredAndEveryOutcomeRecorded() async throws {
    let events = BackgroundEvents()
    var calls = 0
    events.waitForEvents { calls += 1 }
    events.recordingBegan()
    events.recordingBegan()
    events.eventsDelivered()
    events.recordingEnded()
    try await Task.sleep(for: .milliseconds(50))
    #expect(calls == 0, "an outcome is still being recorded")
    events.recordingEnded()
    for _ in 0..<1000 where calls == 0 { try await Task.sleep(for: .milliseconds(5)) }
    #expect(calls == 1)
    events.eventsDelivered()
    try await Task.sleep(for: .milliseconds(50))
    #expect(calls == 1, "given once")
    // Nothing being recorded: the handler goes as soon as the events are delivered — also when the session
    // delivered them before the app handed the handler over.
    events.eventsDelivered()
    events.waitForEvents { calls += 1 }
    for _ in 0..<1000 where calls == 1 { try await Task.sleep(for: .milliseconds(5)) }
    #expect(calls == 2)
  }

  /// What an app delegate does: hands over the `() -> Void` UIKit gave it, a value, not a closure literal.
  @MainActor
  static func forward(_ events: BackgroundEvents, _ handler: @escaping () -> Void) {
    events.waitForEvents(then: handler)
  }

  @MainActor
  @Test func aHandlerHandedOverBeforeTheLastOneWasCalledLetsTheLastOneGo() {
    let events = BackgroundEvents()
    var calls: [String] = []
    let first: () -> Void = { calls.append("first") }
    Self.forward(events, first)
    #expect(calls.isEmpty)
    Self.forward(events) { calls.append("second") }
    #expect(calls == ["first"], "never left uncalled")
  }

  @Test func aTaskNamesItsItemAndOtherTasksNameNone() {
    let id = OutboxItem.ID(rawValue: 42)
    #expect(BackgroundTaskTag.description(for: id, attempt: 3) == "courier-outbox/42/3")
    let tag = BackgroundTaskTag.item(from: BackgroundTaskTag.description(for: id, attempt: 3))
    #expect(tag?.item == id && tag?.attempt == 3)
    for other in [
      nil, "", "courier-outbox/", "courier-outbox/x/1", "download/42/1", "courier-outbox/42", "courier-outbox/42/1/2",
    ] {
      #expect(BackgroundTaskTag.item(from: other) == nil, "\(other ?? "nil")")
    }
  }

  #if !canImport(Darwin)
  @MainActor
  @Test func onLinuxNoSessionsEventsAreTheOutboxsAndTheHandlerStaysWithTheCaller() throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = Outbox.Configuration()
    configuration.backgroundSessionIdentifier = "com.example.outbox"
    let outbox = try Outbox(
      client: APIClient.testing(baseURL: base, transport: StubTransport()), path: path, configuration: configuration)
    let handler: () -> Void = {}
    #expect(!outbox.handleEventsForBackgroundURLSession("another.session", completionHandler: handler))
    #expect(!outbox.handleEventsForBackgroundURLSession("com.example.outbox") {})
  }
  #endif
}
