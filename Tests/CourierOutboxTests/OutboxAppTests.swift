import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import GRDB
import HTTPTypes
import Testing

@testable import CourierOutbox

/// What the outbox does as an app comes and goes: the logic under the Apple glue, driven by the same notifications.
@Suite(.hangGuard) struct OutboxAppTests {
  let base = URL(string: "https://api.example.test/v1")!

  func outbox(
    _ transport: StubTransport, network: SwitchedNetwork = SwitchedNetwork(online: true), path: String,
    center: NotificationCenter = NotificationCenter(), clock: TestCallClock = TestCallClock(),
    _ configure: (inout Outbox.Configuration) -> Void = { _ in }
  ) throws -> Outbox {
    try testOutbox(APIClient.testing(baseURL: base, transport: transport), network: network, path: path) {
      $0.clock = clock
      $0.notificationCenter = center
      configure(&$0)
    }
  }

  /// `POST /v1/posts`, answered `status` once `gate` opens.
  func posts(after gate: AsyncGate, answering status: HTTPResponse.Status = .created) -> Stub {
    .post("/v1/posts").reply { _ in
      await gate.wait()
      return .status(status)
    }
  }

  /// A transport whose `call`th `POST /v1/posts` goes on until it is cut; it answers the others `201`.
  func transport(hangingOnCall call: Int) -> StubTransport {
    let calls = Locked(0)
    return StubTransport(
      .post("/v1/posts").reply { _ in
        if calls.withLock({
          $0 += 1; return $0
        }) == call {
          try await Task.sleep(for: .seconds(86_400))
        }
        return .status(.created)
      })
  }

  @Test func comingBackToTheForegroundSendsWhatWaitsOutABackoffButNotWhatTheServerHeldBack() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(
      .post("/v1/posts").reply(.noConnection, .status(.created)),
      .post("/v1/later").reply(.status(.serviceUnavailable, headerFields: [.retryAfter: "3600"]), .status(.created)))
    let center = NotificationCenter()
    // Time stands still, and the backoff is an hour: nothing is sent again by itself.
    let clock = TestCallClock(advancesOnSleep: false)
    let outbox = try outbox(transport, path: path, center: center, clock: clock) { $0.baseDelay = 7200 }
    let post = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")), lane: "a")
    let later = try await outbox.enqueue(Endpoint<Data>.post("/later", body: Post(title: "b")), lane: "b")
    // Both first attempts failed and their backoffs are recorded.
    try await waitUntil("the first attempts to fail") {
      try await !outbox.items().contains(where: { $0.state != .pending || $0.attempts != 1 })
    }
    try await Task.sleep(for: .milliseconds(100))
    #expect(transport.requests.count == 2, "the items wait out their backoff")
    center.post(name: Notification.Name("UIApplicationWillEnterForegroundNotification"), object: nil)
    try await waitUntil("the backoff is skipped") { transport.requests.count == 3 }
    try await Task.sleep(for: .milliseconds(100))
    let items = try await outbox.items()
    #expect(items.first { $0.id == post }?.state == .delivered)
    #expect(items.first { $0.id == later }?.state == .pending, "the server's Retry-After is kept")
    #expect(transport.requests.count == 3)
    // On macOS the app becoming active does the same.
    center.post(name: Notification.Name("NSApplicationDidBecomeActiveNotification"), object: nil)
    try await Task.sleep(for: .milliseconds(100))
    #expect(transport.requests.count == 3)
    clock.advance(by: 3600)
    try await outbox.waitUntilDrained()
    #expect(transport.requests.count == 4)
    // An outbox the app stopped stays stopped when the app comes back.
    await outbox.stop()
    center.post(name: Notification.Name("UIApplicationWillEnterForegroundNotification"), object: nil)
    try await Task.sleep(for: .milliseconds(50))
    #expect(await outbox.isRunning == false)
  }

  @Test func leavingTheForegroundWaitsForTheAttemptsInFlight() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let gate = AsyncGate()
    let transport = StubTransport(posts(after: gate))
    let outbox = try outbox(transport, path: path)
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")))
    try await waitUntil("the attempt is in flight") { transport.requests.count == 1 }
    let finished = Locked(false)
    let waiting = Task {
      await outbox.finishAttemptsInFlight()
      finished.withLock { $0 = true }
    }
    try await Task.sleep(for: .milliseconds(100))
    #expect(!finished.withLock { $0 }, "the attempt is still in flight")
    await gate.open()
    await waiting.value
    #expect(try await outbox.items().map(\.state) == [.delivered])
  }

  @Test func anAttemptCutWhenBackgroundTimeRunsOutIsSentAgainAndDoesNotCountTowardsTheLimit() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = transport(hangingOnCall: 1)
    // One attempt allowed: had the cut counted, the item would be a dead letter.
    let outbox = try outbox(transport, path: path) { $0.maxAttempts = 1 }
    let id = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")))
    try await waitUntil("the attempt is in flight") { transport.requests.count == 1 }
    let finishing = Task { await outbox.finishInBackground {} }
    try await waitUntil("the app left the foreground") { await !outbox.isActive }
    await outbox.backgroundTimeExpired()
    await finishing.value
    // The attempt ended, recorded, before the wait for the attempts in flight did.
    let cut = try #require(try await outbox.items().first { $0.id == id })
    #expect(cut.state == .pending)
    #expect(cut.attempts == 0, "the cut attempt does not count")
    #expect(transport.requests.count == 1, "no attempt starts while the app has no time to send in")
    await outbox.appBecameActive()
    try await outbox.waitUntilDrained()
    let item = try #require(try await outbox.items().first { $0.id == id })
    #expect(item.state == .delivered)
    #expect(item.attempts == 1)
    #expect(transport.requests.count == 2)
    let keys = transport.requests.map { $0.headerFields[HTTPField.Name("Idempotency-Key")!] }
    #expect(keys[0] != nil && keys[0] == keys[1], "sent again with its key")
  }

  @Test func aBackgroundTaskOfAnAppNotSeenInTheForegroundSendsOnlyWithinItsTime() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = transport(hangingOnCall: 1)
    let center = NotificationCenter()
    // The system launched the app for a background task (`drain(in:)`): no notification said it was in the foreground.
    let outbox = try outbox(transport, path: path, center: center)
    await outbox.beganBackgroundTask()
    let id = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")))
    let task = Task { await outbox.drainUntilDone() }
    try await waitUntil("the attempt is in flight") { transport.requests.count == 1 }
    // The task's time runs out: the attempt in flight is cut before the task is completed.
    await outbox.backgroundTimeExpired()
    #expect(await !outbox.mayClaim, "no attempt starts once the task's time ran out")
    let cut = try #require(try await outbox.items().first { $0.id == id })
    #expect(cut.state == .pending && cut.attempts == 0, "\(cut.state), \(cut.attempts) attempts")
    task.cancel()
    #expect(await task.value == false)
    #expect(await !outbox.mayClaim)
    // The user opens the app: what waits goes.
    center.post(name: Notification.Name("UIApplicationWillEnterForegroundNotification"), object: nil)
    try await outbox.waitUntilDrained()
    #expect(transport.requests.count == 2)
  }

  @Test func anOutboxThatDoesNotFollowTheLifecycleSendsAgainOnceABackgroundTaskEnded() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = transport(hangingOnCall: 3)
    let outbox = try outbox(transport, path: path) { $0.observesAppLifecycle = false }
    await outbox.beganBackgroundTask()
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")))
    #expect(await outbox.drainUntilDone())
    // Nothing would tell it of the foreground: it does not stay in the background for good.
    try #require(await outbox.mayClaim)
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "b")))
    try await outbox.waitUntilDrained()
    #expect(transport.requests.count == 2)

    // Another background task, whose time runs out while an attempt is in flight: cut, and sent again after.
    await outbox.beganBackgroundTask()
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "c")))
    let task = Task { await outbox.drainUntilDone() }
    try await waitUntil("the attempt is in flight") { transport.requests.count == 3 }
    await outbox.backgroundTimeExpired()
    task.cancel()
    #expect(await task.value == false)
    try #require(await outbox.mayClaim, "the task over, it sends again")
    // Nothing else wakes the outbox: the end of the task sends what was cut.
    try await waitUntil("the cut item delivered") { try await outbox.pendingCount() == 0 }
    #expect(transport.requests.count == 4)
  }

  /// The first item is delivered (its record claims the lane's next item) or becomes a dead letter (the lane would
  /// look at its next item): either way the next one is given back, or never claimed, before the app gives its
  /// background time back.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(arguments: [HTTPResponse.Status.created, .unprocessableContent])
  func anItemClaimedAfterTheAppLeftTheForegroundIsGivenBackUnsentBeforeTheTimeIs(
    _ firstAnswer: HTTPResponse.Status
  ) async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let gate = AsyncGate()
    let transport = StubTransport(posts(after: gate, answering: firstAnswer))
    let outbox = try outbox(transport, path: path)
    let sqlite = try #require(outbox.store as? SQLiteOutboxStore)
    let first = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")), lane: "a")
    let second = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "b")), lane: "a")
    try await waitUntil("the first attempt is in flight") { transport.requests.count == 1 }
    // The app leaves the foreground while it is in flight: it finishes, and what its lane does next was decided
    // before. What the outbox holds when it gives the time back is noted then.
    let atEnd = Locked<(lanesSending: Bool, next: String?)?>(nil)
    let finishing = Task {
      await outbox.finishInBackground {
        let sending = outbox.assumeIsolated { !$0.busyLanes.isEmpty }
        let state = try? sqlite.database.read { db in
          try String.fetchOne(
            db, sql: "SELECT state || ' ' || attempts FROM courier_outbox_item WHERE id = ?",
            arguments: [second.rawValue])
        }
        atEnd.withLock { $0 = (sending, state) }
      }
    }
    try await waitUntil("the app left the foreground") { await !outbox.mayClaim }
    await gate.open()
    await finishing.value
    let end = try #require(atEnd.withLock { $0 })
    #expect(!end.lanesSending, "no lane sends when the time is given back")
    #expect(end.next == "pending 0", "the next item was given back, uncounted, before the time was: \(end.next ?? "")")
    #expect(transport.requests.count == 1, "nothing starts once the app left the foreground")
    let items = try await outbox.items()
    #expect(items.first { $0.id == first }?.state == (firstAnswer == .created ? .delivered : .deadLetter))
    let next = try #require(items.first { $0.id == second })
    #expect(next.state == .pending && next.attempts == 0, "\(next.state), \(next.attempts) attempts")
    if firstAnswer != .created {
      // Only a delivery's record claims the next item; after a dead letter the lane claims nothing more at all.
      #expect(next.reason == nil, "the next item was claimed and given back: \(next.reason ?? "")")
    }
  }

  /// The app leaves the foreground while the first item's delivery is being recorded, with the claim of the lane's
  /// next item (the runner decided to go on before): the next item is given back unsent and uncounted, and the app's
  /// background time only after that.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func anItemClaimedWithARecordAsTheAppLeftTheForegroundIsGivenBackBeforeTheTimeIs() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let box = Locked<Outbox?>(nil)
    let atEnd = Locked<String?>(nil)
    let leaving = Locked<Task<Void, Never>?>(nil)
    // The outbox's reads of the time once the answer came: the first decides what it means, the second comes as its
    // record (and the next item's claim) is written.
    let reads = Locked<Int?>(nil)
    let clock = ReadingClock { [reads, box, atEnd, leaving] in
      let read = reads.withLock { count -> Int? in
        count = count.map { $0 + 1 }
        return count
      }
      guard read == 2, let outbox = box.withLock({ $0 }) else { return }
      // On the outbox's actor, where the runner records: the app leaves the foreground now.
      outbox.assumeIsolated { outbox in
        outbox.isActive = false
        outbox.mayClaim = false
      }
      let sqlite = outbox.store as? SQLiteOutboxStore
      leaving.withLock {
        $0 = Task {
          await outbox.finishInBackground {
            let sending = outbox.assumeIsolated { !$0.busyLanes.isEmpty }
            let state = try? sqlite?.database.read { db in
              try String.fetchOne(
                db, sql: "SELECT state || ' ' || attempts FROM courier_outbox_item ORDER BY id LIMIT 1 OFFSET 1")
            }
            atEnd.withLock { $0 = sending ? "a lane still sending" : state ?? "unread" }
          }
        }
      }
    }
    let transport = StubTransport(
      .post("/v1/posts").reply { _ in
        reads.withLock { $0 = 0 }
        return .status(.created)
      })
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path) { $0.clock = clock }
    box.withLock { $0 = outbox }
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")), lane: "a")
    let second = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "b")), lane: "a")
    network.set(NetworkPath(isOnline: true))
    try await waitUntil("the app left the foreground") { leaving.withLock { $0 } != nil }
    await leaving.withLock({ $0 })?.value
    #expect(atEnd.withLock { $0 } == "pending 0", "the next item was given back before the time was")
    #expect(transport.requests.count == 1, "nothing is sent once the app left the foreground")
    let next = try #require(try await outbox.items().first { $0.id == second })
    #expect(next.state == .pending && next.attempts == 0, "\(next.state), \(next.attempts) attempts")
    #expect(next.reason?.contains("no time to send in") == true, "the next item was not claimed with the record")
  }

  @Test func aLaneChosenByAPassThatWaitedOnTheAppIsNotClaimedOnceTheAppLeftTheForeground() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clock = TestCallClock(advancesOnSleep: false)
    let network = SwitchedNetwork(online: false)
    let transport = StubTransport(.post("/v1/posts").reply(.status(.created)))
    let outbox = try outbox(transport, network: network, path: path, clock: clock)
    // The app's handler of results: the pass that makes lane b's item a dead letter waits on it, after it chose to
    // send lane a's item.
    let handling = AsyncGate()
    let handled = AsyncGate()
    await outbox.handleResults(ofKind: "request") { _ in
      await handling.open()
      await handled.wait()
    }
    let ready = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")), lane: "a")
    _ = try await outbox.enqueue(
      Endpoint<Data>.post("/posts", body: Post(title: "b")), lane: "b",
      constraints: OutboxConstraints(giveUpAfter: clock.now.addingTimeInterval(60)))
    clock.advance(by: 120)
    network.set(NetworkPath(isOnline: true))
    await handling.wait()
    // The app leaves the foreground while the pass waits: no lane is sending, and the time is given back at once.
    let atEnd = Locked<String?>(nil)
    let sqlite = try #require(outbox.store as? SQLiteOutboxStore)
    await outbox.finishInBackground {
      atEnd.withLock {
        $0 = try? sqlite.database.read { db in
          try String.fetchOne(
            db, sql: "SELECT state || ' ' || attempts FROM courier_outbox_item WHERE id = ?",
            arguments: [ready.rawValue])
        }
      }
    }
    #expect(atEnd.withLock { $0 } == "pending 0")
    await handled.open()
    try await waitUntil("the pass ended") { await outbox.isQuiet }
    // Nothing was written for lane a's item once the time was given back: not a claim, nor its giving back.
    let item = try #require(try await outbox.items().first { $0.id == ready })
    #expect(item.state == .pending && item.attempts == 0, "\(item.state), \(item.attempts) attempts")
    #expect(item.reason == nil, "the item was claimed after the app gave its time back: \(item.reason ?? "")")
    #expect(transport.requests.isEmpty)
    await outbox.stop()
  }

  /// When the app's background time runs out for an attempt the server answered.
  enum CutMoment: CaseIterable, Sendable {
    /// As the answer comes back, before the outbox reads it.
    case asTheAnswerComes
    /// While its record is being written.
    case asItIsRecorded
  }

  /// The server answered, and the app's background time ran out before the answer was recorded: it is recorded all
  /// the same — delivered, or what its status decides (the outbox's requests accept every status, so a `422` comes
  /// back as an answer, not an error) — not left "sending" with its attempt counted, nor given back.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(arguments: [
    (CutMoment.asTheAnswerComes, HTTPResponse.Status.created), (.asItIsRecorded, .created),
    (.asTheAnswerComes, .unprocessableContent),
  ])
  func anAnswerThatCameAsTheAttemptWasCutIsRecorded(_ moment: CutMoment, _ status: HTTPResponse.Status) async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let gate = AsyncGate()
    let box = Locked<Outbox?>(nil)
    // The outbox's reads of the time once the answer came: the first decides what it means, the second comes as its
    // record is written.
    let reads = Locked<Int?>(nil)
    let clock = ReadingClock { [reads, box] in
      let read = reads.withLock { count -> Int? in
        count = count.map { $0 + 1 }
        return count
      }
      guard moment == .asItIsRecorded, read == 2, let outbox = box.withLock({ $0 }) else { return }
      // On the outbox's actor, where the runner records.
      _ = outbox.assumeIsolated { $0.cutAttempts() }
    }
    let transport = StubTransport(
      .post("/v1/posts").reply { _ in
        await gate.wait()
        reads.withLock { $0 = 0 }
        if moment == .asTheAnswerComes, let outbox = box.withLock({ $0 }) {
          // The server has acted; the cut reaches the attempt as its answer comes back.
          Task { await outbox.backgroundTimeExpired() }
          let stopwatch = Stopwatch()
          while !Task.isCancelled, stopwatch.elapsed < hangSeconds { await Task.yield() }
        }
        return .status(status)
      })
    let outbox = try outbox(transport, path: path) {
      $0.clock = clock
      $0.maxAttempts = 1
    }
    box.withLock { $0 = outbox }
    let id = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")))
    try await waitUntil("the attempt is in flight") { transport.requests.count == 1 }
    let finishing = Task { await outbox.finishInBackground {} }
    try await waitUntil("the app left the foreground") { await !outbox.isActive }
    await gate.open()
    await finishing.value
    if moment == .asItIsRecorded {
      try #require(reads.withLock { $0 ?? 0 } >= 2, "the attempt was cut as its answer was recorded")
    }
    let item = try #require(try await outbox.items().first { $0.id == id })
    #expect(item.state == (status == .created ? .delivered : .deadLetter), "\(item.state), \(item.attempts) attempts")
    #expect(item.responseStatus == status)
    #expect(transport.requests.count == 1)
  }

  /// A background task that starts while the app still finishes what was in flight when it left the foreground: the
  /// time taken at the leave is given back then (the task has time of its own), so its expiry cuts nothing of the
  /// task's.
  @Test func aBackgroundTaskStartedWhileTheAppFinishesItsLeaveEndsTheTimeOfTheLeave() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let gate = AsyncGate()
    let transport = StubTransport(
      posts(after: gate),
      .post("/v1/notes").reply { _ in
        try await Task.sleep(for: .seconds(86_400))
        return .status(.created)
      })
    let system = BackgroundSystemSimulator(seed: 1) { _, _ in (HTTPResponse(status: .created), Data()) }
    let outbox = try outbox(transport, path: path)
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")), lane: "a")
    try await waitUntil("the attempt is in flight") { transport.requests.count == 1 }
    let leaving = Task { await outbox.appEnteredBackground(system: system) }
    try await waitUntil("the app left the foreground") { await !outbox.mayClaim }
    #expect(system.holdsBackgroundTime, "the app holds time for what is in flight")
    // The system runs a background task meanwhile, which sends what waits.
    await outbox.beganBackgroundTask()
    try await outbox.enqueue(Endpoint<Data>.post("/notes", body: Post(title: "b")), lane: "b")
    let task = Task { await outbox.drainUntilDone() }
    try await waitUntil("the time of the leave given back") { !system.holdsBackgroundTime }
    await leaving.value
    try await waitUntil("the task's attempt is in flight") { transport.requests.count == 2 }
    await system.expireBackgroundTime()
    #expect(await outbox.mayClaim, "the task goes on")
    await gate.open()
    try await waitUntil("the first item delivered") {
      try await outbox.items(in: [.delivered]).count == 1
    }
    // The task's own time runs out.
    await outbox.backgroundTimeExpired()
    task.cancel()
    #expect(await task.value == false)
  }

  @Test func drainingForABackgroundTaskReturnsOnceNothingMoreCanGoAndSaysWhetherEverythingWent() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let network = SwitchedNetwork(online: false)
    let gate = AsyncGate()
    let transport = StubTransport(
      .post("/v1/posts").reply(.status(.created)),
      .post("/v1/slow").reply { _ in
        await gate.wait()
        return .status(.created)
      })
    let outbox = try outbox(transport, network: network, path: path)
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")), lane: "a")
    // Offline nothing can go: the drain says so at once, and the item stays.
    #expect(await outbox.drainUntilDone() == false)
    #expect(try await outbox.pendingCount() == 1)
    // A paused lane cannot go either; the rest goes.
    try await outbox.pause(lane: "b")
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "b")), lane: "b")
    network.set(online: true)
    #expect(await outbox.drainUntilDone() == false)
    #expect(try await outbox.items().map(\.state) == [.delivered, .pending])
    try await outbox.resume(lane: "b")
    #expect(await outbox.drainUntilDone() == true)
    #expect(try await outbox.pendingCount() == 0)
    // The task's time runs out while an attempt is in flight: the drain ends, saying so.
    try await outbox.enqueue(Endpoint<Data>.post("/slow", body: Post(title: "c")), lane: "c")
    let expiring = Task { await outbox.drainUntilDone() }
    try await waitUntil("the attempt is in flight") { transport.requests.count == 3 }
    expiring.cancel()
    #expect(await expiring.value == false)
    await gate.open()
    try await outbox.waitUntilDrained()
  }

  @Test func thePendingCountStartsWithTheCountNowAndFollowsIt() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(StubTransport(.post("/v1/posts").reply(.status(.created))), network: network, path: path)
    for title in ["a", "b"] { try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: title))) }
    var counts = await outbox.pendingCounts().makeAsyncIterator()
    #expect(await counts.next() == 2)
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "c")))
    var latest = 2
    while latest != 3, let count = await counts.next() { latest = count }
    #expect(latest == 3)
    network.set(online: true)
    while let count = await counts.next(), count > 0 {}
    #expect(try await outbox.pendingCount() == 0)
  }

  @Test func theDefaultPathIsInTheApplicationSupportFolderWhichItMakes() throws {
    let name = "CourierOutboxTests-\(UUID().uuidString)"
    let path = try Outbox.defaultPath(folder: name)
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: folder) }
    let support = try FileManager.default.url(
      for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false)
    #expect(folder.standardizedFileURL.path == support.appendingPathComponent(name).standardizedFileURL.path)
    #expect(path.hasSuffix("/\(name)/outbox.sqlite"))
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue)
  }
}

/// A gate a stub waits at until the test opens it.
actor AsyncGate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    guard !isOpen else { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }
}

/// A test clock that calls `onRead` each time its time is read.
struct ReadingClock: CallClock {
  let base = TestCallClock()
  let onRead: @Sendable () -> Void

  var now: Date {
    onRead()
    return base.now
  }

  func sleep(seconds: TimeInterval) async throws { try await base.sleep(seconds: seconds) }
}
