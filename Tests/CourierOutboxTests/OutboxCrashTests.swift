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
      for round in 0..<Self.rounds {
        let first = round * perRound
        let output = try await Self.run(
          worker, [path, baseURL.absoluteString, "\(first)", "\(perRound)"],
          killAfter: .milliseconds(Int.random(in: 5...150, using: &random)))
        acknowledged.formUnion(Self.enqueued(in: output))
      }
      // A last run, never killed, sends whatever still waits.
      let last = try await Self.run(
        worker, [path, baseURL.absoluteString, "\(Self.rounds * perRound)", "1"], killAfter: nil)
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
      #expect(acknowledged.count > Self.rounds, "the runs acknowledged \(acknowledged.count) enqueues")
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

  /// Runs the worker, killing it with SIGKILL after `killAfter` (or when the test is cancelled), and returns what it
  /// printed.
  static func run(_ worker: URL, _ arguments: [String], killAfter: Duration?) async throws -> String {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw CocoaError(.fileReadUnknown) }
    let process = try ChildProcess.start(worker.path, arguments, output: ends[1])
    close(ends[1])
    let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
    // Read on a thread of its own until the pipe closes: a blocking read must not hold one of the shared pool's two
    // threads, which the demo server and the kill below need.
    let output = Task {
      await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
        Thread.detachNewThread {
          continuation.resume(returning: String(decoding: reader.readDataToEndOfFile(), as: UTF8.self))
        }
      }
    }
    if let killAfter {
      try await Task.sleep(for: killAfter)
      process.kill(SIGKILL)
    } else {
      // Never killed on a timer: only the suite's time limit, by cancelling the test, ends a run that hangs.
      _ = await withTaskCancellationHandler {
        await process.wait()
      } onCancel: {
        process.kill(SIGKILL)
      }
    }
    _ = await process.wait()
    return await output.value
  }
}
