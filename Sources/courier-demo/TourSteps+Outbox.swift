import Courier
import CourierOutbox
import CourierTesting
import Foundation
import HTTPTypes

/// The outbox: writes made offline, stored, sent once the network is back, each applied once.
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  /// A tour post, as the demo API answers it.
  struct OutboxPost: Codable, Sendable {
    var id: Int?
    var title: String
    var body: String
  }

  func runOutboxSteps() async throws {
    step("Offline writes: an outbox stores them, sends them when the network is back, each applied once")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tour-outbox-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let network = SwitchedNetwork(.offline)
    var configuration = Outbox.Configuration()
    configuration.monitor = network.monitor
    let outbox = try Outbox(
      client: client, path: folder.appendingPathComponent("outbox.sqlite").path, configuration: configuration)
    let before = try await client.value(Endpoint<[OutboxPost]>.get("/posts")).count

    print("  offline (the tour's connectivity switch): three writes in two lanes")
    try await outbox.enqueue(
      Endpoint<OutboxPost>.post("/posts", body: OutboxPost(title: "Written in a tunnel", body: "1")), lane: "posts")
    try await outbox.enqueue(
      Endpoint<OutboxPost>.post("/posts", body: OutboxPost(title: "Then another", body: "2")), lane: "posts")
    try await outbox.enqueue(
      Endpoint<OutboxPost>.post("/posts", body: OutboxPost(title: "From the other lane", body: "3")), lane: "drafts")
    print("  \(try await outbox.pendingCount()) changes waiting")

    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    let delivered = try await outbox.items(in: [.delivered])
    let after = try await client.value(Endpoint<[OutboxPost]>.get("/posts")).count
    print("  back online: \(delivered.count) delivered, the server has \(after - before) new posts")

    // The demo server applies this one, then resets the connection instead of answering: the answer is lost.
    let lost = try await outbox.enqueue(
      Endpoint<OutboxPost>.post("/posts", body: OutboxPost(title: "Answer lost on the way", body: "4"))
        .header("X-Demo-Drop-Answer", "1"))
    try await outbox.waitUntilDrained()
    let item = try await outbox.items().first { $0.id == lost }
    let copies = try await client.value(Endpoint<[OutboxPost]>.get("/posts"))
      .filter { $0.title == "Answer lost on the way" }.count
    print(
      "  an answer lost after the server applied the post: sent \(item?.attempts ?? 0) times with one key, "
        + "\(item?.responseStatus?.code ?? 0) the second time (the stored answer), applied \(copies) time(s)")
  }
}
