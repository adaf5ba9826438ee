import Courier
import CourierTestSupport
import CourierTesting
import Crypto
import Foundation
import GRDB
import HTTPTypes
import Testing

@testable import CourierOutbox

/// Bodies above ``Outbox/Configuration/fileBodyThreshold`` kept in files beside the database, sent from there, and
/// removed when no item needs them.
@Suite(.hangGuard) struct OutboxBodyFileTests {
  let base = URL(string: "https://api.example.test/v1")!

  func outbox(
    _ transport: StubTransport, network: SwitchedNetwork, path: String, threshold: Int = 1024
  ) throws -> Outbox {
    try testOutbox(APIClient.testing(baseURL: base, transport: transport), network: network, path: path) {
      $0.fileBodyThreshold = threshold
    }
  }

  /// `count` bytes that say where they are, with a marker to look for in the database's bytes.
  func payload(_ count: Int, marker: String = "BODY-IN-A-FILE") -> Data {
    var data = Data(marker.utf8)
    while data.count < count { data.append(contentsOf: Array("\(data.count % 9973),".utf8)) }
    return data.prefix(count)
  }

  func files(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path + ".bodies")) ?? []).sorted()
  }

  func databaseBytes(_ path: String) -> Data {
    ((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
      + ((try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data())
  }

  @Test func aLargeBodyWaitsInAFileNotInTheDatabaseIsSentWholeAndGoesOnceDelivered() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.put("/posts/1/image").reply(.status(.noContent)))
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path)
    let picture = payload(200_000)
    let id = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/1/image").body(.data(picture, contentType: "image/png")))
    let item = try #require(try await outbox.items().first)
    #expect(item.id == id)
    #expect(item.bodyLength == 200_000)
    #expect(files(path).count == 1)
    #expect(databaseBytes(path).range(of: Data("BODY-IN-A-FILE".utf8)) == nil, "the body is not in the database")
    // A small body stays in its row.
    try await outbox.enqueue(Endpoint<Data>.post("/posts").body(.data(Data("small".utf8))), lane: "other")
    #expect(files(path).count == 1)

    transport.add(.post("/posts").reply(.status(.created)))
    network.set(online: true)
    try await outbox.waitUntilDrained()
    let sent = try #require(transport.requests.first { $0.request.path == "/v1/posts/1/image" })
    #expect(sent.body == picture)
    #expect(sent.request.headerFields[.contentType] == "image/png")
    #expect(
      sent.request.headerFields[HTTPField.Name("Idempotency-Key")!] == "\"\(item.idempotencyKey)\"",
      "the key the digest belongs to")
    #expect(try await outbox.items().map(\.state) == [.delivered, .delivered])
    #expect(files(path).isEmpty, "a delivered item's file is removed")
  }

  @Test func aFileEndpointIsCopiedAChunkAtATimeSoTheAppMayDeleteItsOwnFile() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("video.mp4")
    let video = payload(3 << 20)
    try video.write(to: source)
    let transport = StubTransport(.put("/videos/7").reply(.status(.created)))
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path, threshold: 512 * 1024)
    try await outbox.enqueue(Endpoint<Data>.put("/videos/7").body(.file(source)))
    try FileManager.default.removeItem(at: source)
    network.set(online: true)
    try await outbox.waitUntilDrained()
    let sent = try #require(transport.requests.first)
    #expect(sent.body?.count == video.count)
    #expect(sent.body == video)
    #expect(sent.request.headerFields[.contentType] == "video/mp4")
    #expect(try await outbox.items().first?.state == .delivered)
  }

  @Test func aStreamOfUnknownLengthThatCanBeReadAgainGoesToAFileAndAOneShotStreamIsRefused() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.post("/upload").reply(.status(.created)))
    let outbox = try outbox(transport, network: SwitchedNetwork(online: false), path: path)
    let chunks = [Data("one,".utf8), Data("two".utf8)]
    let repeatable = BodyStream(Chunks(chunks: chunks), isRepeatable: true)
    try await outbox.enqueue(Endpoint<Data>.post("/upload").body(.body(repeatable)))
    #expect(files(path).count == 1)
    let oneShot = BodyStream(Chunks(chunks: chunks))
    await #expect {
      try await outbox.enqueue(Endpoint<Data>.post("/upload").body(.body(oneShot)))
    } throws: { error in
      (error as? OutboxError)?.kind == .invalidRequest
    }
    #expect(files(path).count == 1, "nothing written for the refused body")
    #expect(try await outbox.items().count == 1)
  }

  @Test func filesNoItemNeedsAreSweptAndThoseOfWaitingItemsAndDeadLettersKept() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.put("/a").reply(.status(.badRequest)))
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path)
    let rejected = try await outbox.enqueue(Endpoint<Data>.put("/a").body(.data(payload(5000))), lane: "a")
    let cancelled = try await outbox.enqueue(Endpoint<Data>.put("/b").body(.data(payload(5000))), lane: "b")
    let waiting = try await outbox.enqueue(Endpoint<Data>.put("/c").body(.data(payload(5000))), lane: "c")
    _ = waiting
    #expect(files(path).count == 3)
    // What a crash long ago left: a body written for an enqueue that never committed, and one half written.
    try Data("orphan".utf8).write(to: URL(fileURLWithPath: path + ".bodies/0000.body"))
    try Data("half".utf8).write(to: URL(fileURLWithPath: path + ".bodies/0001.partial"))
    for name in ["0000.body", "0001.partial"] {
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-2 * BodyFiles.uncommittedGrace)],
        ofItemAtPath: path + ".bodies/" + name)
    }
    // Another process sharing the database (an app's extension) is writing one body now, and renamed another whole
    // but has not committed its row yet: both kept.
    try Data("writing".utf8).write(to: URL(fileURLWithPath: path + ".bodies/0002.partial"))
    try Data("renamed".utf8).write(to: URL(fileURLWithPath: path + ".bodies/0003.body"))

    try await outbox.cancel(cancelled)
    #expect(files(path).count == 4, "the cancelled item's file and the leftovers are gone: \(files(path))")
    #expect(files(path).contains("0002.partial"), "another process's body being written is kept")
    #expect(files(path).contains("0003.body"), "another process's body whose row has not committed is kept")
    try await outbox.pause(lane: "c")
    network.set(online: true)
    await outbox.drain()
    try await waitUntil("a dead letter") { try await outbox.items(in: [.deadLetter]).count == 1 }
    #expect(files(path).count == 4, "a dead letter keeps its body for a requeue; a paused item keeps its own")

    transport.add(.put("/a").reply(.status(.created)))
    try await outbox.requeue(rejected)
    try await waitUntil("a delivery") { try await outbox.items(in: [.delivered]).count == 1 }
    #expect(transport.requests.last?.body == payload(5000), "the dead letter's body, sent again from its file")
    // The file goes once the delivery is recorded, after the store shows it delivered.
    try await waitUntil("the delivered item's file removed") { files(path).count == 3 }
  }

  @Test func anEditReplacesTheFileAndADiscardRemovesIt() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.put("/a").reply(.status(.badRequest)))
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path)
    let id = try await outbox.enqueue(Endpoint<Data>.put("/a").body(.data(payload(5000, marker: "first"))))
    let before = files(path)
    try await outbox.edit(id, to: Endpoint<Data>.put("/a").body(.data(payload(6000, marker: "second"))))
    let after = files(path)
    #expect(after.count == 1)
    #expect(after != before, "a new key, a new file")
    #expect(try await outbox.items().first?.bodyLength == 6000)
    network.set(online: true)
    await outbox.drain()
    try await waitUntil("a dead letter") { try await outbox.items(in: [.deadLetter]).count == 1 }
    #expect(transport.requests.first?.body == payload(6000, marker: "second"))
    try await outbox.discard(id)
    #expect(files(path).isEmpty)
  }

  @Test func aBodyFileGoneMissingIsADeadLetterThatSaysSoNotAHang() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(.put("/a").reply(.status(.created)))
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path)
    try await outbox.enqueue(Endpoint<Data>.put("/a").body(.data(payload(5000))))
    for name in files(path) { try FileManager.default.removeItem(atPath: path + ".bodies/" + name) }
    network.set(online: true)
    try await outbox.waitUntilDrained()
    let item = try #require(try await outbox.items().first)
    #expect(item.state == .deadLetter)
    #expect(item.reason?.contains(".body") == true, "names the file: \(item.reason ?? "")")
    #expect(transport.requests.isEmpty)
  }

  @Test func anOutboxInAnInMemoryDatabaseKeepsEveryBodyInItsRows() async throws {
    let database = try DatabaseQueue()
    let transport = StubTransport(.put("/a").reply(.status(.created)))
    let client = APIClient.testing(baseURL: base, transport: transport)
    var configuration = Outbox.Configuration()
    configuration.monitor = SwitchedNetwork(online: true).monitor
    configuration.fileBodyThreshold = 10
    let outbox = try Outbox(client: client, database: database, configuration: configuration)
    try await outbox.enqueue(Endpoint<Data>.put("/a").body(.data(payload(5000))))
    try await outbox.waitUntilDrained()
    #expect(transport.requests.first?.body == payload(5000))
  }

  /// Chunks from an array, every iteration from the first.
  struct Chunks: AsyncSequence, Sendable {
    let chunks: [Data]
    struct AsyncIterator: AsyncIteratorProtocol {
      var rest: [Data]
      mutating func next() async throws -> Data? { rest.isEmpty ? nil : rest.removeFirst() }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: chunks) }
  }
}
