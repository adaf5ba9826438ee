import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// Each rule of what `BackgroundSystemSimulator` models, one test each: what an app's background code may count on
/// from a background `URLSession`, and what it may not.
@Suite(.hangGuard) struct BackgroundSystemSimulatorTests {
  static let identifier = "com.example.uploads"

  /// A delegate that records what its session delivers.
  final class Recorder: BackgroundSessionDelegate {
    let serverTrustPolicy: ServerTrustPolicy
    private let state = Locked((ends: [(String, BackgroundTaskOutcome)](), finished: 0))

    init(policy: ServerTrustPolicy = .system) { serverTrustPolicy = policy }

    var ends: [(String, BackgroundTaskOutcome)] { state.withLock { $0.ends } }
    var endedTasks: [String] { ends.map(\.0) }
    var finishedEvents: Int { state.withLock { $0.finished } }

    func backgroundSession(
      _ session: any BackgroundSession, taskNamed taskDescription: String, didFinishWith outcome: BackgroundTaskOutcome
    ) {
      state.withLock { $0.ends.append((taskDescription, outcome)) }
    }

    func backgroundSessionDidFinishEvents(_ session: any BackgroundSession) {
      state.withLock { $0.finished += 1 }
    }
  }

  /// A server that records what reached it and answers `201`, or what `answer` says.
  final class Server: Sendable {
    let requests = Locked([(HTTPRequest, Data)]())
    let answer: @Sendable (HTTPRequest) -> HTTPResponse

    init(answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in HTTPResponse(status: .created) }) {
      self.answer = answer
    }

    func handle(_ request: HTTPRequest, _ body: Data) -> (HTTPResponse, Data) {
      requests.withLock { $0.append((request, body)) }
      return (answer(request), Data("ok".utf8))
    }
  }

  let file: URL = {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-simulator-\(UUID()).bin")
    try? Data(repeating: 7, count: 100).write(to: file)
    return file
  }()

  func upload(_ name: String, method: HTTPRequest.Method = .put, headers: HTTPFields = [:]) -> BackgroundUpload {
    BackgroundUpload(
      request: HTTPRequest(
        method: method, scheme: "https", authority: "api.example.test", path: "/\(name)", headerFields: headers),
      file: file, taskDescription: name)
  }

  @Test func tasksOutliveTheAppAndTheirEventsWaitForASessionMadeAgain() throws {
    defer { try? FileManager.default.removeItem(at: file) }
    let server = Server()
    let system = BackgroundSystemSimulator(seed: 1, server: server.handle)
    let first = Recorder()
    try system.makeSession(identifier: Self.identifier, delegate: first).upload(upload("a"))
    system.endApp()
    #expect(system.runningTaskCount == 1, "the task goes on without the app")
    #expect(system.step(), "the task runs")
    #expect(system.heldEventCount == 1)
    #expect(system.identifiersAwaitingLaunch == [Self.identifier], "the system would relaunch the app for it")
    #expect(!system.step(), "no session to deliver the event to")
    #expect(first.ends.isEmpty, "the ended app hears nothing")

    let relaunched = Recorder()
    _ = try system.makeSession(identifier: Self.identifier, delegate: relaunched)
    #expect(system.identifiersAwaitingLaunch.isEmpty)
    while system.step() {}
    #expect(relaunched.endedTasks == ["a"])
    #expect(relaunched.finishedEvents == 1, "told once every held event was delivered")
    #expect(system.heldEventCount == 0)
  }

  @Test func aListingShowsOnlyTasksStillRunningAlsoBeforeTheirEndIsDelivered() async throws {
    defer { try? FileManager.default.removeItem(at: file) }
    let system = BackgroundSystemSimulator(seed: 2, server: Server().handle)
    let recorder = Recorder()
    let session = try system.makeSession(identifier: Self.identifier, delegate: recorder)
    try session.upload(upload("a"))
    try session.upload(upload("b"))
    #expect(Set(await session.runningTaskDescriptions()) == ["a", "b"])
    system.endApp()
    _ = system.step()
    // The next process's session: the task that ran is not listed, though its end waits to be delivered.
    let relaunched = try system.makeSession(identifier: Self.identifier, delegate: Recorder())
    let ran = Set(["a", "b"]).subtracting(system.runningTaskDescriptions)
    #expect(ran.count == 1)
    let listing = Task { await relaunched.runningTaskDescriptions() }
    // Asked for before the held event was delivered, the listing is answered after it.
    while system.step() {}
    #expect(Set(await listing.value) == Set(system.runningTaskDescriptions))
    #expect(Set(await listing.value).isDisjoint(with: ran))
  }

  @Test func aProcessHasOneValidSessionPerIdentifierUntilItsTasksEnded() throws {
    defer { try? FileManager.default.removeItem(at: file) }
    let system = BackgroundSystemSimulator(seed: 3, server: Server().handle)
    let recorder = Recorder()
    let session = try system.makeSession(identifier: Self.identifier, delegate: recorder)
    #expect {
      try system.makeSession(identifier: Self.identifier, delegate: Recorder())
    } throws: { error in
      (error as? CourierError)?.kind == .invalidRequest
    }
    try session.upload(upload("a"))
    session.finishTasksAndInvalidate()
    #expect(session.isValid, "valid until its task ended")
    #expect(throws: CourierError.self) { try system.makeSession(identifier: Self.identifier, delegate: Recorder()) }
    while system.step() {}
    #expect(recorder.endedTasks == ["a"], "the end delivered to the invalidated session's delegate")
    #expect(!session.isValid)
    #expect(throws: CourierError.self) { try session.upload(upload("b")) }
    _ = try system.makeSession(identifier: Self.identifier, delegate: Recorder())
  }

  @Test func aRedirectIsFollowedWithoutTheCredentialsAndAPostBecomesAGet() throws {
    defer { try? FileManager.default.removeItem(at: file) }
    let server = Server { request in
      request.path == "/a"
        ? HTTPResponse(status: .found, headerFields: [.location: "https://api.example.test/b?page=2"])
        : HTTPResponse(status: .ok)
    }
    let system = BackgroundSystemSimulator(seed: 4, server: server.handle)
    let recorder = Recorder()
    let session = try system.makeSession(identifier: Self.identifier, delegate: recorder)
    // Some runs lose the request on the way: upload until one reaches the server.
    var tries = 0
    while server.requests.withLock({ $0.isEmpty }) && tries < 50 {
      try session.upload(upload("a", method: .post, headers: [.authorization: "Bearer secret"]))
      while system.step() {}
      tries += 1
    }
    let requests = server.requests.withLock { $0 }
    try #require(requests.count == 2, "\(requests.map(\.0))")
    #expect(requests[0].0.headerFields[.authorization] == "Bearer secret")
    #expect(requests[0].0.method == .post && requests[0].1.count == 100)
    #expect(requests[1].0.path == "/b?page=2")
    #expect(requests[1].0.headerFields[.authorization] == nil, "credentials dropped on the redirect")
    #expect(requests[1].0.method == .get && requests[1].1.isEmpty, "a POST redirected by a 302 becomes a GET")
  }

  @Test func aServerTheSessionsPolicyDoesNotTrustIsNeverSentTheRequest() throws {
    defer { try? FileManager.default.removeItem(at: file) }
    let server = Server()
    // The system's roots do not trust the server's certificate, nor does the delegate's policy.
    let system = BackgroundSystemSimulator(
      seed: 5, certificateChain: [Data([0x30, 0x00])], trustedBySystem: false, server: server.handle)
    let recorder = Recorder()
    try system.makeSession(identifier: Self.identifier, delegate: recorder).upload(upload("a"))
    while system.step() {}
    #expect(server.requests.withLock { $0.isEmpty })
    guard case .failed(let error)? = recorder.ends.first?.1 else {
      Issue.record("expected a failure, got \(recorder.ends)")
      return
    }
    #expect(error.kind == .tls)
  }

  @Test func expiringBackgroundTimeWaitsForTheWorkToStopAndEndingItLetsItGo() async throws {
    defer { try? FileManager.default.removeItem(at: file) }
    let system = BackgroundSystemSimulator(seed: 6, server: Server().handle)
    let stopped = Locked(false)
    _ = system.beginBackgroundTime(reason: "finishing") {
      await Task.yield()
      stopped.withLock { $0 = true }
    }
    let end = system.beginBackgroundTime(reason: "done early") { Issue.record("an ended activity expired") }
    end()
    #expect(system.holdsBackgroundTime)
    await system.expireBackgroundTime()
    #expect(stopped.withLock { $0 }, "expiry returns once the work stopped")
    #expect(!system.holdsBackgroundTime)
    // Ending the app ends its background time without a word.
    _ = system.beginBackgroundTime(reason: "ended") { Issue.record("an ended app's activity expired") }
    system.endApp()
    await system.expireBackgroundTime()
  }

  @Test func aScheduleReplaysFromItsSeed() throws {
    defer { try? FileManager.default.removeItem(at: file) }
    func run(seed: UInt64) throws -> [String] {
      let system = BackgroundSystemSimulator(seed: seed, server: Server().handle)
      var recorder = Recorder()
      var session = try system.makeSession(identifier: Self.identifier, delegate: recorder)
      var log: [String] = []
      for name in ["a", "b", "c", "d"] { try session.upload(upload(name)) }
      for _ in 0..<12 {
        if system.choose(below: 4) == 0 {
          log += recorder.endedTasks
          system.endApp()
          recorder = Recorder()
          session = try system.makeSession(identifier: Self.identifier, delegate: recorder)
        } else {
          system.step()
        }
      }
      while system.step() {}
      return log
        + recorder.ends.map { end in
          switch end.1 {
          case .answered(let head, _): "\(end.0) \(head.status.code)"
          case .failed(let error): "\(end.0) \(error.kind)"
          }
        }
    }
    let runs = try (0..<3).map { _ in try run(seed: 42) }
    #expect(runs[0] == runs[1] && runs[1] == runs[2], "\(runs)")
    #expect(try (0..<8).map { try run(seed: $0) }.contains { $0 != runs[0] }, "other seeds, other schedules")
  }
}
