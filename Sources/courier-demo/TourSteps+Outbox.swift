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

    print("  offline (the tour's connectivity switch): a post, its picture for the id the server will give it,")
    print("  and a post in another lane")
    let post = try await outbox.enqueue(
      Endpoint<OutboxPost>.post("/posts", body: OutboxPost(title: "Written in a tunnel", body: "1")), lane: "posts")
    // Larger than the outbox's fileBodyThreshold (512 KiB): it waits in a file beside the database, not in a row.
    let picture = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
    let upload = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(picture).header(.contentType, "image/png"), lane: "posts",
      after: post, bindings: [.json("id", at: "/id")])
    try await outbox.enqueue(
      Endpoint<OutboxPost>.post("/posts", body: OutboxPost(title: "From the other lane", body: "3")), lane: "drafts")
    print(
      "  \(try await outbox.pendingCount()) changes waiting; the picture's target: "
        + "\(try await outbox.items().first { $0.id == upload }?.target ?? "?")")
    let bodies = folder.appendingPathComponent("outbox.sqlite.bodies").path
    print(
      "  the picture (\(picture.count) bytes) waits in a file of its own beside the database: "
        + "\((try? FileManager.default.contentsOfDirectory(atPath: bodies))?.count ?? 0) file")

    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    let delivered = try await outbox.items(in: [.delivered])
    let after = try await client.value(Endpoint<[OutboxPost]>.get("/posts")).count
    let target = try await outbox.items().first { $0.id == upload }?.target ?? "?"
    let stored = try await client.send(Endpoint<Data>.get(target))
    print("  back online: \(delivered.count) delivered in order, the server has \(after - before) new posts")
    guard stored.value == picture else { throw OutboxPictureChanged(sent: picture.count, stored: stored.value.count) }
    print("  the picture went to \(target): the server holds the same \(stored.value.count) bytes there")

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
    try await runOutboxCrashRun()
    try await runBackgroundUploadStep()
  }

  /// The background path of an iPhone app, run here over the background-session simulator of CourierTesting.
  func runBackgroundUploadStep() async throws {
    step("Background uploads as on an iPhone, simulated: the app is ended mid-upload and relaunched for its events")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tour-background-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let applied = Locked(0)
    let system = BackgroundSystemSimulator(seed: 3) { _, _ in
      applied.withLock { $0 += 1 }
      return (HTTPResponse(status: .created), Data())
    }
    let open = { (inBackground: Bool) in
      var configuration = Outbox.Configuration()
      configuration.monitor = .constant(NetworkPath(isOnline: true))
      configuration.backgroundSessionIdentifier = "com.example.tour.outbox"
      configuration.backgroundSystem = system
      configuration.startsInBackground = inBackground
      return try Outbox(
        client: client, path: folder.appendingPathComponent("outbox.sqlite").path, configuration: configuration)
    }
    var app: Outbox? = try open(false)
    let video = Data(repeating: 1, count: 700_000)
    let id = try await app!.enqueue(Endpoint<Data>.put("/videos/1").body(video), lane: "videos")
    while system.runningTaskCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
    print("  the \(video.count)-byte video was handed to the system's background session; the app is ended")
    system.endApp()
    await app?.stop()
    app = nil
    system.step()
    print("  the upload ends while the app is not running; the system relaunches it in the background")
    let relaunched = try open(true)
    let called = Locked(false)
    _ = await MainActor.run {
      relaunched.handleEventsForBackgroundURLSession("com.example.tour.outbox") { called.withLock { $0 = true } }
    }
    system.step()
    while !called.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
    let state = try await relaunched.items().first { $0.id == id }?.state
    print(
      "  its outcome recorded (\(state.map { "\($0)" } ?? "?")), then the app's completion handler called; "
        + "the server applied it \(applied.withLock { $0 }) time(s)")
  }

  /// A child process enqueuing and draining is killed with SIGKILL at random moments and started again.
  func runOutboxCrashRun() async throws {
    guard let executable = Bundle.main.executableURL else { return }
    step("The outbox after crashes: a child process draining it is killed with SIGKILL at random moments")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tour-crash-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("outbox.sqlite").path
    let kills = 25
    let perRun = 4
    var acknowledged = Set<Int>()
    for run in 0...kills {
      let killAfter = run < kills ? Double.random(in: 0.01...0.2) : nil
      let output = try await OutboxChild.run(
        executable, ["outbox-worker", database, baseURL.absoluteString, "\(run * perRun)", "\(perRun)"],
        killAfter: killAfter)
      for line in output.split(separator: "\n") where line.hasPrefix("enqueued ") {
        if let index = Int(line.dropFirst("enqueued ".count)) { acknowledged.insert(index) }
      }
    }
    var applied: [Int: Int] = [:]
    for post in try await client.value(Endpoint<[OutboxPost]>.get("/posts")) where post.title.hasPrefix("crash-") {
      if let index = Int(post.title.dropFirst("crash-".count)) { applied[index, default: 0] += 1 }
    }
    let lost = acknowledged.filter { applied[$0] == nil }.count
    let twice = applied.values.filter { $0 > 1 }.count
    print(
      "  \(kills) kills: \(acknowledged.count) enqueues acknowledged, \(applied.count) applied by the server, "
        + "\(twice) applied twice, \(lost) lost")
    guard twice == 0, lost == 0 else { throw OutboxCrashRunFailed(twice: twice, lost: lost) }
  }
}

/// The crash run found a write applied twice or lost.
struct OutboxCrashRunFailed: Error, CustomStringConvertible {
  var twice: Int
  var lost: Int
  var description: String { "the outbox crash run applied \(twice) writes twice and lost \(lost)" }
}

struct OutboxPictureChanged: Error, CustomStringConvertible {
  var sent: Int
  var stored: Int
  var description: String { "the outbox sent a picture of \(sent) bytes and the server holds \(stored) other bytes" }
}

/// A child process of the tour: started, read, and killed with SIGKILL or waited for.
enum OutboxChild {
  /// Runs `executable` with `arguments`, kills it after `killAfter` seconds (or waits at most 60 s), and returns what
  /// it printed.
  static func run(_ executable: URL, _ arguments: [String], killAfter: Double?) async throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Read on a thread of its own until the pipe closes, so no thread of Swift's shared pool blocks on it.
    let reader = pipe.fileHandleForReading
    let output = Task {
      await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
        Thread.detachNewThread {
          continuation.resume(returning: String(decoding: reader.readDataToEndOfFile(), as: UTF8.self))
        }
      }
    }
    let child = process.processIdentifier
    let killer = Task {
      try await Task.sleep(for: .seconds(killAfter ?? 60))
      kill(child, SIGKILL)
    }
    // The pipe closes when the child ends: killed, or done.
    let printed = await output.value
    killer.cancel()
    return printed
  }
}
