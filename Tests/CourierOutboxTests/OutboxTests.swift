import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import GRDB
import HTTPTypes
import Testing

@testable import CourierOutbox

extension SwitchedNetwork {
  /// A network online or offline.
  convenience init(online: Bool) { self.init(NetworkPath(isOnline: online)) }

  /// Switches it online or offline.
  func set(online: Bool) { set(NetworkPath(isOnline: online)) }
}

/// An outbox for a test, stored at `path`, sending through `client` on `network`: on a clock that stands still with
/// backoffs of half their ceiling (`random` is 0.5), unless `configure` says otherwise. Every outbox test makes its
/// outbox here.
func testOutbox(
  _ client: APIClient, network: SwitchedNetwork = SwitchedNetwork(online: true), path: String,
  _ configure: (inout Outbox.Configuration) -> Void = { _ in }
) throws -> Outbox {
  var configuration = Outbox.Configuration()
  configuration.monitor = network.monitor
  configuration.clock = TestCallClock()
  configuration.random = { 0.5 }
  configure(&configuration)
  return try Outbox(client: client, path: path, configuration: configuration)
}

struct Post: Codable, Equatable, Sendable {
  var title: String
}

@Suite(.hangGuard) struct OutboxTests {
  let base = URL(string: "https://api.example.test/v1")!

  func outbox(
    _ transport: StubTransport, network: SwitchedNetwork = SwitchedNetwork(online: true), path: String,
    headers: HTTPFields = [:], _ configure: (inout Outbox.Configuration) -> Void = { _ in }
  ) throws -> Outbox {
    let client = APIClient.testing(baseURL: base, transport: transport) { configuration in
      configuration.defaultHeaders.append(contentsOf: headers)
    }
    return try testOutbox(client, network: network, path: path, configure)
  }

  @Test func anItemIsStoredAsHTTPWithoutCredentialsAndSentOnceWithItsKey() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.post("/posts").reply(.json(Post(title: "a"), status: .created)))
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path)
    let endpoint = Endpoint<Post>.post("/posts", body: Post(title: "a"))
      .header(.authorization, "Bearer secret-token").header(.cookie, "session=secret-cookie").header("X-Trace", "1")
    let id = try await outbox.enqueue(endpoint, lane: "posts")
    let stored = try #require(try await outbox.items().first)
    #expect(stored.id == id)
    #expect(stored.state == .pending)
    #expect(stored.target == "/posts")
    #expect(stored.headerFields[.authorization] == nil)
    #expect(stored.headerFields[.cookie] == nil)
    #expect(stored.headerFields[HTTPField.Name("X-Trace")!] == "1")
    #expect(UUID(uuidString: stored.idempotencyKey) != nil)
    let bytes =
      try Data(contentsOf: URL(fileURLWithPath: path))
      + ((try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data())
    #expect(bytes.range(of: Data("secret-token".utf8)) == nil, "a bearer token in the database file")
    #expect(bytes.range(of: Data("secret-cookie".utf8)) == nil, "a cookie in the database file")

    network.set(online: true)
    try await outbox.waitUntilDrained()
    #expect(transport.requests.count == 1)
    let sent = try #require(transport.requests.first)
    #expect(sent.request.headerFields[HTTPField.Name("Idempotency-Key")!] == "\"\(stored.idempotencyKey)\"")
    #expect(try await outbox.items().map(\.state) == [.delivered])
    #expect(try await outbox.pendingCount() == 0)
  }

  @Test func anItemWithoutHeaderFieldsOrBodyIsStoredAndSent() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.delete("/posts/1").reply(.status(.noContent)))
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path)
    _ = try await outbox.enqueue(Endpoint<Data>.delete("/posts/1"), lane: "posts")
    let stored = try #require(try await outbox.items().first)
    #expect(stored.headerFields.isEmpty)
    network.set(online: true)
    try await outbox.waitUntilDrained()
    #expect(transport.requests.count == 1)
    #expect(try await outbox.items().map(\.state) == [.delivered])
  }

  @Test func badInputGetsATypedErrorAndNothingIsStored() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let outbox = try outbox(StubTransport(), network: SwitchedNetwork(online: false), path: path)
    let read = await #expect(throws: OutboxError.self) { try await outbox.enqueue(Endpoint<Data>.get("/posts")) }
    #expect(read?.kind == .invalidRequest)
    let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
    continuation.yield(Data("once".utf8))
    continuation.finish()
    let oneShot = await #expect(throws: OutboxError.self) {
      try await outbox.enqueue(Endpoint<Data>.post("/upload").body(.body(BodyStream(chunks, length: 4))))
    }
    #expect(oneShot?.kind == .invalidRequest)
    #expect(try await outbox.items().isEmpty)
  }

  @Test func aCorruptFileOrANewerSchemaIsATypedErrorAndTheFileIsLeftAsItIs() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let garbage = Data(repeating: 0x5A, count: 8192)
    try garbage.write(to: URL(fileURLWithPath: path))
    let corrupt = #expect(throws: OutboxError.self) { try outbox(StubTransport(), path: path) }
    #expect(corrupt?.kind == .corruptStore)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)

    let (newerFolder, newer) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: newerFolder) }
    let database = try DatabaseQueue(path: newer)
    _ = try SQLiteOutboxStore(database: database)
    try await database.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('courier-outbox-99')")
    }
    try database.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: newer))
    let superseded = #expect(throws: OutboxError.self) { try outbox(StubTransport(), path: newer) }
    #expect(superseded?.kind == .newerSchema)
    #expect(try Data(contentsOf: URL(fileURLWithPath: newer)) == before)
  }

  @Test func anItemOfAnUnknownKindIsQuarantinedNeverSentNeverDropped() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.post("/posts").reply(.status(.created)))
    let old = try outbox(transport, network: SwitchedNetwork(online: false), path: path)
    try await old.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")), kind: Outbox.Kind("post", version: 3))
    await old.stop()
    let current = try outbox(transport, path: path) { $0.kinds = [Outbox.Kind("post", version: 2)] }
    await current.start()
    try await waitUntil("the item is quarantined") { try await current.items().first?.state == .quarantined }
    #expect(transport.requests.isEmpty)
    #expect(try await current.items().first?.reason?.contains("version 3") == true)
  }

  @Test func anItemOlderThanTheKeyRetentionGoesToTheReconcileHook() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.post("/posts").reply(.status(.created)))
    let network = SwitchedNetwork(online: false)
    let clock = TestCallClock()
    let outbox = try outbox(transport, network: network, path: path) {
      $0.clock = clock
      $0.reconcile = { _ in .resendWithNewKey }
    }
    let id = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")))
    let firstKey = try await outbox.items().first?.idempotencyKey
    clock.advance(by: 25 * 3600)
    network.set(online: true)
    try await outbox.waitUntilDrained()
    let item = try #require(try await outbox.items().first)
    #expect(item.id == id)
    #expect(item.state == .delivered)
    #expect(item.idempotencyKey != firstKey, "resent with a new key")
    #expect(
      transport.requests.first?.request.headerFields[HTTPField.Name("Idempotency-Key")!] == "\"\(item.idempotencyKey)\""
    )
  }
}

@Suite struct DeliveryDecisionTests {
  @Test(arguments: [408, 409, 425, 429, 500, 502, 503, 504])
  func transientStatusesAreSentAgain(_ code: Int) {
    let decision = DeliveryDecision.decide(status: .init(code: code), headerFields: [:], now: Date())
    #expect({ if case .retry = decision { true } else { false } }())
  }

  @Test(arguments: [400, 403, 404, 410, 422, 501])
  func otherFailuresAreDeadLetters(_ code: Int) {
    let decision = DeliveryDecision.decide(status: .init(code: code), headerFields: [:], now: Date())
    #expect({ if case .deadLetter = decision { true } else { false } }())
  }

  @Test func a401PausesAndSuccessesAreDelivered() {
    #expect(
      {
        if case .pause = DeliveryDecision.decide(status: .unauthorized, headerFields: [:], now: Date()) {
          true
        } else {
          false
        }
      }())
    #expect(DeliveryDecision.decide(status: .created, headerFields: [:], now: Date()) == .delivered)
    #expect(DeliveryDecision.decide(status: .noContent, headerFields: [:], now: Date()) == .delivered)
  }

  @Test func aFailureAfterTheHeadDecidesByItsStatusSaveASuccessWhoseBodyWasLost() {
    func after(_ code: Int, _ kind: CourierError.Kind) -> DeliveryDecision {
      DeliveryDecision.decide(
        failure: CourierError(kind, "part-way", response: HTTPResponse(status: .init(code: code))))
    }
    for kind: CourierError.Kind in [.connectionLost, .timeout] {
      #expect({ if case .retry = after(201, kind) { true } else { false } }(), "a 201 whose body was lost")
      #expect({ if case .retry = after(204, kind) { true } else { false } }())
      #expect({ if case .deadLetter = after(422, kind) { true } else { false } }(), "a refusal stays refused")
      #expect({ if case .retry = after(503, kind) { true } else { false } }())
    }
    // Sending again would fail the same way: a body too large, a redirect the client refuses, an inflation refused.
    #expect(after(200, .responseTooLarge) == .delivered)
    #expect(after(303, .redirect) == .delivered)
    #expect(after(201, .transport) == .delivered)
  }

  @Test func retryAfterIsReadAsSecondsOrADate() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(DeliveryDecision.retryAfter("120", now: now) == 120)
    #expect(DeliveryDecision.retryAfter("Fri, 15 Jan 2027 08:00:30 GMT", now: now) == 30)
    #expect(DeliveryDecision.retryAfter("soon", now: now) == nil)
  }

  @Test func backoffIsFullJitterUnderADoublingCeilingAndNeverBelowRetryAfter() {
    #expect(DeliveryDecision.backoff(afterAttempt: 1, base: 1, maximum: 300, retryAfter: nil, random: 0.5) == 0.5)
    #expect(DeliveryDecision.backoff(afterAttempt: 4, base: 1, maximum: 300, retryAfter: nil, random: 0.5) == 4)
    #expect(DeliveryDecision.backoff(afterAttempt: 20, base: 1, maximum: 300, retryAfter: nil, random: 1) == 300)
    #expect(DeliveryDecision.backoff(afterAttempt: 1, base: 1, maximum: 300, retryAfter: 7, random: 0.1) == 7)
  }
}
