import ArgumentParser
import Courier
import CourierOutbox
import Foundation

extension CourierDemo {
  /// Enqueues posts into an outbox and drains it against a demo server until it is killed: the child the tour's crash
  /// run kills at random moments. Prints `enqueued N` once the enqueue of post N returned (the item is then durable),
  /// and `drained` when nothing waits.
  struct OutboxWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "outbox-worker", abstract: "The child process of the tour's outbox crash run.",
      shouldDisplay: false)

    @Argument(help: "The outbox database.") var database: String
    @Argument(help: "The demo server's base URL.") var baseURL: String
    @Argument(help: "The index of the first post.") var first: Int
    @Argument(help: "How many posts to enqueue.") var count: Int

    /// A post the worker writes.
    struct WorkerPost: Codable, Sendable {
      var title: String
      var body: String
    }

    func run() async throws {
      guard let url = URL(string: baseURL) else { throw ValidationError("\(baseURL) is not a URL") }
      var configuration = Outbox.Configuration()
      configuration.monitor = .constant(NetworkPath(isOnline: true))
      configuration.baseDelay = 0.05
      configuration.maxAttempts = 1_000
      configuration.observesAppLifecycle = false
      let outbox = try Outbox(
        client: APIClient(baseURL: url) { $0.timeout = 10 }, path: database, configuration: configuration)
      await outbox.start()
      for index in first..<(first + count) {
        try await outbox.enqueue(
          Endpoint<Data>.post("/posts", body: WorkerPost(title: "crash-\(index)", body: "b")), lane: "lane-\(index % 3)"
        )
        Self.say("enqueued \(index)")
      }
      try await outbox.waitUntilDrained()
      Self.say("drained")
    }

    static func say(_ line: String) {
      FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
  }
}
