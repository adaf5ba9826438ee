import Courier
import CourierTestSupport
import Foundation
import Testing

/// A child process enqueuing and draining against the demo server is killed with SIGKILL at random moments — during
/// an enqueue's commit, after a send, before an answer is recorded, during the first migration — and restarted;
/// afterwards every acknowledged enqueue was applied by the server exactly once, and nothing twice.
@Suite(.timeLimit(.minutes(15))) struct OutboxCrashTests {
  /// The worker executable built next to the test bundle.
  static var worker: URL? {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
    ]
    return candidates.map { $0.appendingPathComponent("CourierOutboxCrashWorker") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// 20 kills in `swift test`, 200 in the soak script; `COURIER_OUTBOX_CRASH_ROUNDS` sets another number.
  static let rounds = Soak.size(20, soak: 200, override: "COURIER_OUTBOX_CRASH_ROUNDS")

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func killedAtRandomMomentsEveryAcknowledgedWriteIsAppliedExactlyOnce() async throws {
    let worker = try #require(Self.worker, "CourierOutboxCrashWorker is built with the tests")
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withDemoServer { baseURL in
      var acknowledged = Set<Int>()
      var random = SystemRandomNumberGenerator()
      let perRound = 4
      var awaited = 0
      for round in 0..<Self.rounds {
        let first = round * perRound
        // Killed once it acknowledged a random number of its enqueues, at once (mid-enqueue) or a random moment after
        // (mid-delivery), whatever the machine's speed.
        let enqueues = Int.random(in: 1...perRound, using: &random)
        awaited += enqueues
        let output = try await Self.run(
          worker, [path, baseURL.absoluteString, "\(first)", "\(perRound)"],
          kill: (
            afterEnqueues: enqueues,
            then: .milliseconds(Bool.random(using: &random) ? 0 : Int.random(in: 1...100, using: &random))
          ))
        acknowledged.formUnion(Self.enqueued(in: output))
      }
      // A last run, never killed, sends whatever still waits.
      let last = try await Self.run(
        worker, [path, baseURL.absoluteString, "\(Self.rounds * perRound)", "1"], kill: nil)
      #expect(last.contains("drained"), "the last run drained the outbox: \(last)")
      acknowledged.formUnion(Self.enqueued(in: last))

      let client = APIClient(baseURL: baseURL)
      let titles = try await client.value(Endpoint<[CrashPost]>.get("/posts")).map(\.title)
      var applied: [Int: Int] = [:]
      for title in titles where title.hasPrefix("crash-") {
        if let index = Int(title.dropFirst("crash-".count)) { applied[index, default: 0] += 1 }
      }
      let twice = applied.filter { $0.value > 1 }.keys.sorted()
      let lost = acknowledged.filter { applied[$0] == nil }.sorted()
      #expect(twice.isEmpty, "applied twice: \(twice)")
      #expect(lost.isEmpty, "acknowledged and never applied: \(lost)")
      #expect(acknowledged.count > awaited, "the runs acknowledged \(acknowledged.count) enqueues, \(awaited) awaited")
      print(
        "outbox crash test: \(Self.rounds) kills, \(acknowledged.count) acknowledged enqueues, "
          + "\(applied.count) applied, \(twice.count) applied twice")
    }
  }

  struct CrashPost: Codable, Sendable {
    var title: String
  }

  /// The indices the worker said it enqueued.
  static func enqueued(in output: String) -> Set<Int> {
    Set(
      output.split(separator: "\n").compactMap { line in
        line.hasPrefix("enqueued ") ? Int(line.dropFirst("enqueued ".count)) : nil
      })
  }

  /// Runs the worker and returns what it printed; with `kill`, kills it with SIGKILL once it printed that many
  /// `enqueued` lines and the pause passed (or when the test is cancelled), else waits for it to end.
  static func run(
    _ worker: URL, _ arguments: [String], kill: (afterEnqueues: Int, then: Duration)?
  ) async throws -> String {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw CocoaError(.fileReadUnknown) }
    let process = try ChildProcess.start(worker.path, arguments, output: ends[1])
    close(ends[1])
    let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
    // Read on a thread of its own until the pipe closes: a blocking read must not hold one of the shared pool's two
    // threads, which the demo server and the kill below need.
    let (lines, continuation) = AsyncStream.makeStream(of: String.self)
    Thread.detachNewThread {
      var pending = Data()
      while case let chunk = reader.availableData, !chunk.isEmpty {
        pending.append(chunk)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
          pending.removeSubrange(pending.startIndex...newline)
        }
      }
      if !pending.isEmpty { continuation.yield(String(decoding: pending, as: UTF8.self)) }
      continuation.finish()
    }
    var output: [String] = []
    // Never killed on a timer: only the suite's time limit, by cancelling the test, ends a run that hangs.
    await withTaskCancellationHandler {
      var enqueued = 0
      for await line in lines {
        output.append(line)
        guard let kill, line.hasPrefix("enqueued ") else { continue }
        enqueued += 1
        if enqueued == kill.afterEnqueues {
          try? await Task.sleep(for: kill.then)
          process.kill(SIGKILL)
        }
      }
    } onCancel: {
      process.kill(SIGKILL)
    }
    _ = await process.wait()
    return output.joined(separator: "\n")
  }
}
