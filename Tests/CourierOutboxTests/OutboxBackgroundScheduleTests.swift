import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import CourierOutbox

/// The outbox's background path under seeded schedules of `BackgroundSystemSimulator`: the app ended, relaunched for
/// its session's events or by the user, sent to the background, its background time expired, and the system's
/// events delivered, delayed and reordered, at every step. After each schedule: every item delivered once or a dead
/// letter with its answer; never two live uploads of one item; the app's handler called at most once per relaunch,
/// only after every outcome was recorded; no attempt started while the app had no time to send in.
///
/// `swift test` runs 100 schedules; the soak script 3,000 (`COURIER_SCHEDULES` overrides both): a schedule costs
/// about 30 ms here (a database of its own, opened again at every relaunch). A failing schedule prints its seed;
/// `COURIER_SCHEDULE_SEED=<seed>` runs that one alone.
@Suite(.timeLimit(.minutes(15))) struct OutboxBackgroundScheduleTests {
  static let identifier = "com.example.outbox"

  @Test func everyScheduleKeepsTheOutboxsPromises() async throws {
    let environment = ProcessInfo.processInfo.environment
    let seeds: [UInt64] =
      if let one = environment["COURIER_SCHEDULE_SEED"].flatMap(UInt64.init) {
        [one]
      } else {
        (0..<UInt64(Soak.size(100, soak: 3_000, override: "COURIER_SCHEDULES"))).map { $0 }
      }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-schedules-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let started = ContinuousClock.now
    // Four schedules at a time: each has its own simulator, database and server, so each replays from its seed alone.
    var failed: [UInt64] = []
    var next = seeds.makeIterator()
    try await withThrowingTaskGroup(of: (UInt64, [String]).self) { group in
      func add() {
        guard let seed = next.next() else { return }
        group.addTask { (seed, try await Schedule(seed: seed, folder: folder).run()) }
      }
      for _ in 0..<4 { add() }
      while let (seed, problems) = try await group.next() {
        if !problems.isEmpty {
          failed.append(seed)
          Issue.record("schedule \(seed) (COURIER_SCHEDULE_SEED=\(seed)): \(problems.joined(separator: "; "))")
        }
        if failed.count < 5 { add() }
      }
    }
    print("background schedules: \(seeds.count) run in \(ContinuousClock.now - started), \(failed.count) failed")
  }
}

/// One schedule: an app with three large writes (two in one lane, in order) and a small one.
final class Schedule: Sendable {
  /// A server that applies each `Idempotency-Key` once and answers with what it decided for it the first time: most
  /// often `201`, sometimes `503` (sent again) or `422` (a dead letter).
  final class Server: Sendable {
    let decisions = Locked([String: Int]())
    let seed: UInt64

    init(seed: UInt64) { self.seed = seed }

    func answer(_ request: HTTPRequest, _ body: Data) -> (HTTPResponse, Data) {
      let key = request.headerFields[HTTPField.Name("Idempotency-Key")!] ?? "none"
      let status = decisions.withLock { decisions -> Int in
        if let decided = decisions[key], decided != 503 { return decided }
        var hasher = SplitMix64(seed: seed &+ UInt64(decisions.count))
        let roll = hasher.next() % 10
        let decided = roll == 0 ? 422 : roll == 1 ? 503 : 201
        decisions[key] = decided
        return decided
      }
      return (HTTPResponse(status: HTTPResponse.Status(code: status)), Data(key.utf8))
    }
  }

  /// The foreground transport: answers `201`, and notes a request sent while the app had no time to send in.
  struct ForegroundTransport: HTTPTransport {
    let mayClaim: @Sendable () -> Bool
    let inFlight: @Sendable () -> Set<String>
    let strays: Locked<[String]>

    func send(
      _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
    ) async throws -> (HTTPResponse, BodyStream) {
      let key = request.headerFields[HTTPField.Name("Idempotency-Key")!] ?? ""
      if !mayClaim(), !inFlight().contains(key) { strays.withLock { $0.append(request.path ?? "") } }
      return (HTTPResponse(status: .created), BodyStream())
    }
  }

  /// Notes every attempt — a foreground request or a handoff to the session, both pass the client's interceptors —
  /// started while the app had no time to send in, but those the outbox had in flight when it lost it (they reach
  /// the interceptors a hop later).
  struct AttemptWatch: Interceptor {
    let mayClaim: @Sendable () -> Bool
    let inFlight: @Sendable () -> Set<String>
    let strays: Locked<[String]>

    func intercept(
      _ request: HTTPRequest, body: BodyStream?, context: CallContext, next: Next
    ) async throws -> (HTTPResponse, BodyStream) {
      let key = request.headerFields[HTTPField.Name("Idempotency-Key")!] ?? ""
      if !mayClaim(), !inFlight().contains(key) { strays.withLock { $0.append(request.path ?? "") } }
      return try await next(request, body, context)
    }
  }

  let seed: UInt64
  let path: String
  let system: BackgroundSystemSimulator
  let server: Server
  /// Whether the simulated app may start attempts now (active, or within background time).
  let active = Locked(true)
  /// The keys of the items the outbox had in flight when the app last lost its time to send in.
  let flying = Locked(Set<String>())
  let strays = Locked([String]())
  /// The handler calls of each background launch.
  let handlerCalls = Locked([Int: Int]())
  let problems = Locked([String]())

  init(seed: UInt64, folder: URL) {
    self.seed = seed
    path = folder.appendingPathComponent("schedule-\(seed).sqlite").path
    server = Server(seed: seed)
    system = BackgroundSystemSimulator(seed: seed, server: server.answer)
  }

  /// Opens the app's outbox; the ended process's last connection may still be closing (an in-process ending cannot
  /// close it at once, as a killed process's would be): the open is tried again until it lets go.
  func launch(inBackground: Bool) async throws -> Outbox {
    var opened: Outbox?
    try await waitUntil("the ended process's connection to let go of the database") {
      do {
        opened = try open(inBackground: inBackground)
        return true
      } catch let error as OutboxError where error.message.contains("database is locked") {
        return false
      }
    }
    return opened!
  }

  func open(inBackground: Bool) throws -> Outbox {
    active.withLock { $0 = !inBackground }
    let client = APIClient(baseURL: URL(string: "https://api.example.test")!) { [active, flying, strays] in
      $0.transport = ForegroundTransport(
        mayClaim: { active.withLock { $0 } }, inFlight: { flying.withLock { $0 } }, strays: strays)
      $0.interceptors.append(
        AttemptWatch(mayClaim: { active.withLock { $0 } }, inFlight: { flying.withLock { $0 } }, strays: strays))
      $0.timeout = 600
    }
    var configuration = Outbox.Configuration()
    configuration.clock = TestCallClock()
    configuration.monitor = SwitchedNetwork(online: true).monitor
    configuration.random = { 0.5 }
    configuration.maxAttempts = 4
    configuration.fileBodyThreshold = 100
    configuration.backgroundSessionIdentifier = Schedule.identifier
    configuration.backgroundSystem = system
    configuration.observesAppLifecycle = false
    configuration.startsInBackground = inBackground
    return try Outbox(client: client, path: path, configuration: configuration)
  }

  static let identifier = OutboxBackgroundScheduleTests.identifier

  /// Waits until the outbox settled after a step: nothing in a pass, no lane sending, no outcome being recorded.
  func settle(_ outbox: Outbox) async throws {
    var spins = 0
    while await !outbox.isQuiet {
      spins += 1
      // A few turns of the pool, then a pause: the outbox waits on its database's queue, not on the pool.
      if spins % 8 == 0 { try await Task.sleep(for: .milliseconds(1)) } else { await Task.yield() }
      if spins > 1_000_000 { throw WaitTimedOut(what: "the outbox to settle", seconds: 0) }
    }
  }

  func check(_ condition: Bool, _ problem: @autoclosure () -> String) {
    if !condition { problems.withLock { $0.append(problem()) } }
  }

  /// No item has two live uploads.
  func checkUploads() {
    let items = system.runningTaskDescriptions.compactMap { BackgroundTaskTag.item(from: $0)?.item }
    check(Set(items).count == items.count, "two live uploads of one item: \(system.runningTaskDescriptions)")
  }

  func run() async throws -> [String] {
    defer {
      for suffix in ["", "-wal", "-shm", ".bodies"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    var launches = 0
    var outbox: Outbox? = try await launch(inBackground: false)
    let large = { (n: UInt8) in
      Endpoint<Data>.put("/pictures/\(n)").body(.data(Data(repeating: n, count: 500), contentType: "image/png"))
    }
    let first = try await outbox!.enqueue(large(1), lane: "pictures")
    let second = try await outbox!.enqueue(large(2), lane: "pictures")
    let third = try await outbox!.enqueue(large(3), lane: "avatar")
    let small = try await outbox!.enqueue(Endpoint<Data>.post("/notes").body(.data(Data("n".utf8))), lane: "notes")
    try await settle(outbox!)

    for _ in 0..<16 {
      switch system.choose(below: 12) {
      case 0..<6:
        system.step()
      case 6, 7:
        // The app is ended, and launched again: in the background when events wait for it, else by the user.
        launches += 1
        outbox = try await endAndRelaunch(outbox, launch: launches)
      case 8:
        // The app leaves the foreground: it gets background time to finish what is in flight. Until the outbox heard
        // it, it is within that time; from then on, no attempt may start.
        if let outbox {
          Task { await outbox.appEnteredBackground(system: system) }
          try await waitUntil("the outbox to stop claiming") { await !outbox.mayClaim }
          // What it had in flight then may still reach the interceptors; nothing else may.
          let ids = await outbox.inFlight
          let keys = try await outbox.items().filter { ids.contains($0.id) }.map(\.idempotencyKey)
          flying.withLock { $0 = Set(keys) }
        }
        active.withLock { $0 = false }
      case 9:
        await system.expireBackgroundTime()
      case 10:
        active.withLock { $0 = true }
        await outbox?.appBecameActive()
      default:
        await outbox?.drain()
      }
      if let outbox { try await settle(outbox) }
      checkUploads()
    }

    // The end: the system finishes its tasks, the app takes their events, then the user opens it until it is done.
    for round in 0..<20 {
      while system.step() {
        if let outbox { try await settle(outbox) }
        checkUploads()
      }
      if !system.identifiersAwaitingLaunch.isEmpty || round % 4 == 3 {
        launches += 1
        outbox = try await endAndRelaunch(outbox, launch: launches)
        try await settle(outbox!)
        continue
      }
      active.withLock { $0 = true }
      await outbox?.appBecameActive()
      try await settle(outbox!)
      let items = try await outbox!.items()
      if items.allSatisfy({ [.delivered, .deadLetter].contains($0.state) }), system.runningTaskCount == 0 { break }
    }
    let items = try await outbox!.items()
    for item in items {
      check([.delivered, .deadLetter].contains(item.state), "item \(item.id) ended \(item.state)")
      if item.state == .deadLetter, item.id != small {
        check(item.responseStatus != nil || item.attempts >= 4, "dead letter \(item.id) without an answer")
      }
    }
    // In order within the lane: the second picture went only once the first was final.
    if let one = items.first(where: { $0.id == first }), let two = items.first(where: { $0.id == second }),
      two.state == .delivered
    {
      check(one.state == .delivered || one.state == .deadLetter, "item \(second) delivered before \(first)")
    }
    _ = third
    check(strays.withLock { $0 }.isEmpty, "attempts without time to send in: \(strays.withLock { $0 })")
    for (launch, calls) in handlerCalls.withLock({ $0 }) {
      check(calls <= 1, "the handler of launch \(launch) called \(calls) times")
    }
    // The app ends: its session goes with it, and the uploader of this schedule's simulator with the session.
    system.endApp()
    await outbox?.stop()
    return problems.withLock { $0 }
  }

  /// Ends the app's process — first, so that the system never answers what it asked — and launches it again.
  func endAndRelaunch(_ outbox: Outbox?, launch: Int) async throws -> Outbox {
    system.endApp()
    await outbox?.stop()
    // What the ended process still had under way ends before the next one opens the database: a test cannot stop it
    // as the system would.
    if let outbox { try await settle(outbox) }
    return try await relaunch(launch: launch)
  }

  /// A new process: in the background for the session's events (the handler given to the outbox), or by the user.
  func relaunch(launch: Int) async throws -> Outbox {
    let forEvents = !system.identifiersAwaitingLaunch.isEmpty
    let outbox = try await self.launch(inBackground: forEvents)
    if forEvents {
      handlerCalls.withLock { $0[launch] = 0 }
      let handed = await MainActor.run {
        outbox.handleEventsForBackgroundURLSession(Schedule.identifier) { [handlerCalls, problems, system] in
          handlerCalls.withLock { $0[launch, default: 0] += 1 }
          if system.heldEventCount > 0 {
            problems.withLock { $0.append("the handler of launch \(launch) was called with events held") }
          }
        }
      }
      check(handed, "the outbox did not take its session's events")
    }
    // As an app does at every launch; launched in the background, it starts no attempt.
    await outbox.start()
    return outbox
  }
}
