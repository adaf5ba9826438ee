import Courier
import CourierOutbox
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// A store the conformance cases run on: every call of ``open`` is another process (a relaunch, a restart after a
/// crash, another worker) opening an outbox on the same items.
public struct OutboxStoreUnderTest: Sendable {
  /// Opens an outbox on the store's items, sending through `client`, with `configuration`.
  public var open: @Sendable (_ client: APIClient, _ configuration: Outbox.Configuration) async throws -> Outbox
  /// Opens an outbox on the same items for a process that is about to die: what it holds (a fleet's lane lease)
  /// ends soon after it dies, so that the next process takes over without a long wait.
  public var openDying: @Sendable (_ client: APIClient, _ configuration: Outbox.Configuration) async throws -> Outbox

  /// A store whose outboxes `open` opens; `openDying` opens one whose holds end soon, `open` when nothing is held.
  public init(
    open: @escaping @Sendable (APIClient, Outbox.Configuration) async throws -> Outbox,
    openDying: (@Sendable (APIClient, Outbox.Configuration) async throws -> Outbox)? = nil
  ) {
    self.open = open
    self.openDying = openDying ?? open
  }
}

/// What every outbox store must do, checked through the outbox that runs on it: the delivery logic is written once,
/// and a store that passes these cases keeps its promises — order per lane, one key per item, outcomes fenced by
/// attempt, dependants bound or cancelled, dead letters with their answers, the queue's limit, results after a
/// relaunch, and an item left sending by a crash sent again with its key.
///
/// Each store's test target runs every case on a fresh store (`OutboxStoreConformance.allCases`).
public enum OutboxStoreConformance: String, CaseIterable, Sendable, CustomStringConvertible {
  case lanesKeepTheirOrderAndEachItemItsKey
  case aLaneBeyondTheConcurrentOnesGetsATurnAfterEachTurnOfAnother
  case aLaneThatComesWhileAnotherSendsGetsItsPlaceAtTheEndOfTheTurn
  case aTransientFailureIsSentAgainWithTheSameKeyAfterTheServersRetryAfter
  case aRejectedItemIsADeadLetterWithItsAnswerCancelsItsDependantsAndMayBeRequeued
  case a401PausesTheLaneUntilItIsResumed
  case valuesFromAnAnswerAreBoundIntoTheItemsThatWaitForIt
  case aValueMissingFromTheAnswerMakesADeadLetterAndCancelsWhatWaitsForIt
  case anItemLeftSendingByACrashIsSentAgainWithItsKey
  case anOutcomeOfAnAttemptThatIsNoLongerTheLatestIsNotRecorded
  case aBatchIsStoredInOrderOrNotAtAll
  case theQueuesLimitRefusesWhatWouldPassIt
  case aWaitingItemMayBeCancelledWithItsDependantsOrEditedWithANewKey
  case resultsReachTheHandlerOfTheirKindOnceAfterARelaunch
  case aRunsDeliveriesAreRecordedTogetherWithTheClaimOfTheNextItemsThatMayGo
  case aFailureInARunGivesItsLaterItemsBackUncounted
  case valuesFromAnAnswerInARunAreBoundIntoTheItemsThatWaitForIt
  case theFirstItemsOfSeveralLanesAreClaimedTogether
  case theWaitingCountAndBytesFollowEveryChange
  case theFirstItemsOfTheLanesNotBusyNorPausedAreRead

  /// The case's name, as test reports show it.
  public var description: String { rawValue }

  /// Runs the case on `store`.
  public func check(on store: OutboxStoreUnderTest) async throws {
    let conformance = Checks(store: store)
    switch self {
    case .lanesKeepTheirOrderAndEachItemItsKey: try await conformance.lanesKeepTheirOrder()
    case .aLaneBeyondTheConcurrentOnesGetsATurnAfterEachTurnOfAnother: try await conformance.turns()
    case .aLaneThatComesWhileAnotherSendsGetsItsPlaceAtTheEndOfTheTurn: try await conformance.laneThatComes()
    case .aTransientFailureIsSentAgainWithTheSameKeyAfterTheServersRetryAfter: try await conformance.retry()
    case .aRejectedItemIsADeadLetterWithItsAnswerCancelsItsDependantsAndMayBeRequeued:
      try await conformance.deadLetter()
    case .a401PausesTheLaneUntilItIsResumed: try await conformance.pause()
    case .valuesFromAnAnswerAreBoundIntoTheItemsThatWaitForIt: try await conformance.bindings()
    case .aValueMissingFromTheAnswerMakesADeadLetterAndCancelsWhatWaitsForIt: try await conformance.missingValue()
    case .anItemLeftSendingByACrashIsSentAgainWithItsKey: try await conformance.crash()
    case .anOutcomeOfAnAttemptThatIsNoLongerTheLatestIsNotRecorded: try await conformance.fence()
    case .aBatchIsStoredInOrderOrNotAtAll: try await conformance.batch()
    case .theQueuesLimitRefusesWhatWouldPassIt: try await conformance.limit()
    case .aWaitingItemMayBeCancelledWithItsDependantsOrEditedWithANewKey: try await conformance.cancelAndEdit()
    case .resultsReachTheHandlerOfTheirKindOnceAfterARelaunch: try await conformance.results()
    case .aRunsDeliveriesAreRecordedTogetherWithTheClaimOfTheNextItemsThatMayGo: try await conformance.runs()
    case .aFailureInARunGivesItsLaterItemsBackUncounted: try await conformance.failureInARun()
    case .valuesFromAnAnswerInARunAreBoundIntoTheItemsThatWaitForIt: try await conformance.bindingsInARun()
    case .theFirstItemsOfSeveralLanesAreClaimedTogether: try await conformance.claimsOfSeveralLanes()
    case .theWaitingCountAndBytesFollowEveryChange: try await conformance.waitingTotals()
    case .theFirstItemsOfTheLanesNotBusyNorPausedAreRead: try await conformance.laneHeads()
    }
  }
}

/// A post as the cases send it.
struct Note: Codable, Equatable, Sendable {
  var title: String
}

/// A created resource, whose values later items bind.
struct Created: Codable, Equatable, Sendable {
  var id: Int
  var slug: String
}

private let keyField = HTTPField.Name("Idempotency-Key")!

/// The cases, each on an outbox of its own store.
private struct Checks {
  let store: OutboxStoreUnderTest
  let base = URL(string: "https://api.example.test/v1")!

  /// An outbox sending through `transport` on `network`, on a clock that stands still and backoffs of half their
  /// ceiling, unless `configure` says otherwise.
  func open(
    _ transport: StubTransport, network: SwitchedNetwork = SwitchedNetwork(NetworkPath(isOnline: true)),
    dying: Bool = false, _ configure: (inout Outbox.Configuration) -> Void = { _ in }
  ) async throws -> Outbox {
    var configuration = configuration(network)
    configure(&configuration)
    let client = APIClient.testing(baseURL: base, transport: transport)
    return try await (dying ? store.openDying : store.open)(client, configuration)
  }

  /// Online or offline with `network`, on a clock that stands still, backoffs of half their ceiling.
  func configuration(_ network: SwitchedNetwork) -> Outbox.Configuration {
    var configuration = Outbox.Configuration()
    configuration.monitor = network.monitor
    configuration.clock = TestCallClock()
    configuration.random = { 0.5 }
    configuration.observesAppLifecycle = false
    return configuration
  }

  func offline() -> SwitchedNetwork { SwitchedNetwork(NetworkPath(isOnline: false)) }

  func titles(_ requests: [RecordedRequest], to path: String) throws -> [String] {
    try requests.filter { $0.path == path }.map { try $0.decodeBody(as: Note.self).title }
  }

  /// The lengths of the runs of one lane's items in `sent`, in the order sent.
  func runs(in sent: [RecordedRequest]) -> [Int] {
    var runs: [Int] = []
    for (index, request) in sent.enumerated() {
      if index > 0, sent[index - 1].path == request.path { runs[runs.count - 1] += 1 } else { runs.append(1) }
    }
    return runs
  }

  func lanesKeepTheirOrder() async throws {
    let transport = StubTransport(
      .post("/v1/a").reply(.status(.created)), .post("/v1/b").reply(.status(.created)))
    let network = offline()
    let outbox = try await open(transport, network: network)
    var ids: [OutboxItem.ID] = []
    for title in ["a0", "b0", "a1", "b1", "a2"] {
      let lane = String(title.prefix(1))
      ids.append(try await outbox.enqueue(Endpoint<Data>.post("/\(lane)", body: Note(title: title)), lane: lane))
    }
    #expect(ids == ids.sorted(), "IDs grow in the order of the enqueues")
    #expect(transport.requests.isEmpty, "nothing goes out offline")
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    let sent = transport.requests
    #expect(try titles(sent, to: "/v1/a") == ["a0", "a1", "a2"], "a lane goes in the order of its enqueues")
    #expect(try titles(sent, to: "/v1/b") == ["b0", "b1"])
    let items = try await outbox.items()
    #expect(items.map(\.id) == ids)
    #expect(items.allSatisfy { $0.state == .delivered && $0.attempts == 1 })
    #expect(Set(items.map(\.idempotencyKey)).count == 5, "each item has a key of its own")
    let titles = ["a0", "b0", "a1", "b1", "a2"]
    for request in sent {
      let index = try #require(titles.firstIndex(of: try request.decodeBody(as: Note.self).title))
      #expect(request.request.headerFields[keyField] == "\"\(items[index].idempotencyKey)\"")
    }
    await outbox.stop()
  }

  func retry() async throws {
    let stub = StubTransport(
      .post("/v1/posts").reply(
        .status(.serviceUnavailable, headerFields: [.retryAfter: "7"]), .noConnection,
        .json(Note(title: "a"), status: .created)))
    let clock = TestCallClock()
    let transport = ClockedTransport(stub, clock: clock)
    var configuration = configuration(SwitchedNetwork(NetworkPath(isOnline: true)))
    configuration.clock = clock
    let client = APIClient(configuration: APIClient.Configuration(baseURL: base, transport: transport))
    let outbox = try await store.open(client, configuration)
    try await outbox.enqueue(Endpoint<Note>.post("/posts", body: Note(title: "a")))
    try await outbox.waitUntilDrained()
    let keys = stub.requests.map { $0.request.headerFields[keyField] }
    #expect(keys.count == 3)
    #expect(Set(keys).count == 1, "every attempt carries the same key")
    // The 503 asked for 7 s; the failed connection waits the jittered backoff of its attempt: half of 2 s. (A store
    // shared by a fleet looks again on its own schedule too, so an attempt may come later; never earlier.)
    let times = transport.times
    #expect(times.count == 3)
    if times.count == 3 {
      #expect(times[1].timeIntervalSince(times[0]) >= 7, "sent again before the server's Retry-After")
      #expect(times[2].timeIntervalSince(times[1]) >= 1, "sent again before its backoff")
    }
    let item = try #require(try await outbox.items().first)
    #expect(item.state == .delivered)
    #expect(item.attempts == 3)
    await outbox.stop()
  }

  func deadLetter() async throws {
    let transport = StubTransport(
      .post("/v1/posts").reply(.status(.unprocessableContent), .status(.created)),
      .post("/v1/profile").reply(.status(.ok)))
    let network = offline()
    let outbox = try await open(transport, network: network)
    let events = await outbox.events()
    let poisoned = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "")), lane: "posts")
    let picture = try await outbox.enqueue(
      Endpoint<Data>.post("/posts/1/image").body(Data([1, 2, 3])), lane: "pictures", after: poisoned)
    let profile = try await outbox.enqueue(Endpoint<Data>.post("/profile", body: Note(title: "me")), lane: "profile")
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    let items = try await outbox.items()
    #expect(items.map(\.id) == [poisoned, picture, profile])
    #expect(items.map(\.state) == [.deadLetter, .cancelled, .delivered])
    #expect(items[0].responseStatus == .unprocessableContent)
    #expect(items[1].reason?.contains("\(poisoned)") == true)
    #expect(transport.requests.compactMap(\.request.path).sorted() == ["/v1/posts", "/v1/profile"])
    for await event in events {
      if case .deadLettered(poisoned, let error) = event {
        #expect(error.kind == .rejected)
        break
      }
    }
    // Sent again by the app, with a new key.
    let firstKey = items[0].idempotencyKey
    try await outbox.requeue(poisoned)
    try await outbox.waitUntilDrained()
    let requeued = try #require(try await outbox.items().first { $0.id == poisoned })
    #expect(requeued.state == .delivered)
    #expect(requeued.idempotencyKey != firstKey)
    #expect(transport.requests.last?.request.headerFields[keyField] == "\"\(requeued.idempotencyKey)\"")
    await #expect { try await outbox.requeue(profile) } throws: { ($0 as? OutboxError)?.kind == .noSuchItem }
    await outbox.stop()
  }

  func pause() async throws {
    let transport = StubTransport(.post("/v1/posts").reply(.status(.unauthorized), .status(.created)))
    let network = offline()
    let outbox = try await open(transport, network: network)
    let events = await outbox.events()
    let first = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "a")), lane: "posts")
    try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "b")), lane: "posts")
    network.set(NetworkPath(isOnline: true))
    for await event in events {
      if case .waiting(first, .paused) = event { break }
    }
    // Paused, once recorded: one attempt went out, and both items still wait, in order, until the lane is resumed.
    #expect(transport.requests.count == 1)
    #expect(try await outbox.pendingCount() == 2)
    try await outbox.resume(lane: "posts")
    try await outbox.waitUntilDrained()
    #expect(try titles(transport.requests, to: "/v1/posts") == ["a", "a", "b"], "the paused item first")
    await outbox.stop()
  }

  func bindings() async throws {
    let transport = StubTransport(
      .post("/v1/posts").reply(.json(Created(id: 42, slug: "hello"), status: .created)),
      .put("/v1/posts/42/image").reply(.status(.noContent)),
      .post("/v1/posts/42/pictures").reply(.status(.created)))
    let network = offline()
    let outbox = try await open(transport, network: network)
    let post = try await outbox.enqueue(Endpoint<Created>.post("/posts", body: Note(title: "hello")), lane: "posts")
    let image = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(Data([0xFF, 0xD8])), lane: "pictures", after: post,
      bindings: [.json("id", at: "/id")])
    let caption = try await outbox.enqueue(
      Endpoint<Data>.post("/posts/{id}/pictures", body: Note(title: "of {slug}")).header("X-Post", "{id}"),
      lane: "pictures", after: post, bindings: [.json("id", at: "/id"), .json("slug", at: "/slug")])
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    #expect(try await outbox.items().map(\.state) == [.delivered, .delivered, .delivered])
    #expect(
      transport.requests.compactMap(\.request.path) == ["/v1/posts", "/v1/posts/42/image", "/v1/posts/42/pictures"])
    let sent = try #require(transport.requests.last)
    #expect(sent.request.headerFields[HTTPField.Name("X-Post")!] == "42")
    #expect(try sent.decodeBody(as: Note.self) == Note(title: "of hello"))
    #expect(try await outbox.items().map(\.id) == [post, image, caption])
    // An item enqueued once its dependency was delivered is bound at once from the stored answer.
    let late = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(Data([1])), lane: "pictures", after: post,
      bindings: [.json("id", at: "/id")])
    #expect(try await outbox.items().first { $0.id == late }?.target == "/posts/42/image")
    try await outbox.waitUntilDrained()
    #expect(try await outbox.items().first { $0.id == late }?.state == .delivered)
    await #expect {
      try await outbox.enqueue(
        Endpoint<Data>.put("/posts/{id}").body(Data([1])), after: post, bindings: [.json("id", at: "/missing")])
    } throws: { ($0 as? OutboxError)?.kind == .bindingFailed }
    await outbox.stop()
  }

  func missingValue() async throws {
    let transport = StubTransport(
      .post("/v1/posts").reply(.json(["unexpected": true], status: .created)),
      .post("/v1/profile").reply(.status(.ok)))
    let network = offline()
    let outbox = try await open(transport, network: network)
    let post = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "a")), lane: "posts")
    let image = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(Data([1])), lane: "pictures", after: post,
      bindings: [.json("id", at: "/id")])
    let comment = try await outbox.enqueue(
      Endpoint<Data>.post("/posts/1/comments").body(Data([2])), lane: "pictures", after: image)
    let profile = try await outbox.enqueue(Endpoint<Data>.post("/profile", body: Note(title: "me")), lane: "profile")
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    let items = try await outbox.items()
    #expect(items.map(\.id) == [post, image, comment, profile])
    #expect(items.map(\.state) == [.delivered, .deadLetter, .cancelled, .delivered])
    #expect(items[1].reason?.contains("nothing at the JSON Pointer /id") == true)
    #expect(items[1].target.contains("%7Bid%7D"), "the failed item is kept as it was enqueued")
    #expect(transport.requests.compactMap(\.request.path).sorted() == ["/v1/posts", "/v1/profile"])
    await outbox.stop()
  }

  func crash() async throws {
    // The first process records "sending", then dies before the answer is recorded.
    let dying = try await open(StubTransport(), network: offline(), dying: true)
    let id = try await dying.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "a")), lane: "posts")
    let key = try #require(try await dying.items().first?.idempotencyKey)
    let (claimed, _) = try await dying.store.markSending(id)
    #expect(claimed.state == .sending)
    await dying.stop()

    let transport = StubTransport(.post("/v1/posts").reply(.status(.created)))
    let outbox = try await open(transport)
    await outbox.drain()
    try await outbox.waitUntilDrained()
    #expect(transport.requests.count == 1)
    #expect(transport.requests.first?.request.headerFields[keyField] == "\"\(key)\"")
    let item = try #require(try await outbox.items().first)
    #expect(item.state == .delivered)
    #expect(item.attempts == 2)
    await outbox.stop()
  }

  func fence() async throws {
    let outbox = try await open(StubTransport(), network: offline())
    let id = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "a")), lane: "posts")
    let store = outbox.store
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    _ = try await store.markSending(id)
    try await store.record(.retry(at: now, heldUntil: nil, reason: "a 503"), for: id, lane: "posts", at: now)
    _ = try await store.markSending(id)
    let answer = RecordedResponse(status: .created, headerFields: [:], body: Data())
    await #expect {
      try await store.record(.delivered(answer), for: id, lane: "posts", at: now, ifAttempt: 1)
    } throws: { ($0 as? OutboxError)?.kind == .noSuchItem }
    var item = try #require(try await outbox.items().first)
    #expect(item.state == .sending, "the first attempt's late outcome overwrote the second's")
    #expect(item.attempts == 2)
    try await store.record(.delivered(answer), for: id, lane: "posts", at: now, ifAttempt: 2)
    item = try #require(try await outbox.items().first)
    #expect(item.state == .delivered)
    await #expect {
      try await store.record(.delivered(answer), for: id, lane: "posts", at: now, ifAttempt: 2)
    } throws: { ($0 as? OutboxError)?.kind == .noSuchItem }
    await outbox.stop()
  }

  /// One lane at a time, and two lanes of 40 items, the first enqueued whole before the second: a lane runner gives
  /// its place back after a turn of 32 items, and the other lane goes next, however old the first lane's backlog.
  func turns() async throws {
    let transport = StubTransport(.post("/v1/a").reply(.status(.created)), .post("/v1/b").reply(.status(.created)))
    let network = offline()
    let outbox = try await open(transport, network: network) { $0.maxConcurrentLanes = 1 }
    for lane in ["a", "b"] {
      _ = try await outbox.enqueue(
        contentsOf: (0..<40).map { Endpoint<Data>.post("/\(lane)", body: Note(title: "\(lane)\($0)")) }, lane: lane)
    }
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    let sent = transport.requests
    #expect(try titles(sent, to: "/v1/a") == (0..<40).map { "a\($0)" })
    #expect(try titles(sent, to: "/v1/b") == (0..<40).map { "b\($0)" })
    #expect(runs(in: sent) == [32, 32, 8, 8], "each lane sends a turn of 32 items, then the other goes")
    await outbox.stop()
  }

  /// One lane at a time, a lane of 80 items sending alone, and a second lane enqueued while the first one's 10th item
  /// is sent: the first lane goes on while nothing else waits, and gives its place back at the end of the turn in
  /// which the second lane came.
  func laneThatComes() async throws {
    let opened = Locked<Outbox?>(nil)
    let sentToA = Locked(0)
    let transport = StubTransport(
      .post("/v1/a").reply { _ in
        let sent = sentToA.withLock { count in
          count += 1
          return count
        }
        if sent == 10, let outbox = opened.withLock({ $0 }) {
          // Stored before the 10th item's answer comes.
          _ = try await outbox.enqueue(
            contentsOf: (0..<5).map { Endpoint<Data>.post("/b", body: Note(title: "b\($0)")) }, lane: "b")
        }
        return .status(.created)
      },
      .post("/v1/b").reply(.status(.created)))
    let network = offline()
    let outbox = try await open(transport, network: network) { $0.maxConcurrentLanes = 1 }
    opened.withLock { $0 = outbox }
    _ = try await outbox.enqueue(
      contentsOf: (0..<80).map { Endpoint<Data>.post("/a", body: Note(title: "a\($0)")) }, lane: "a")
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    let sent = transport.requests
    #expect(try titles(sent, to: "/v1/a") == (0..<80).map { "a\($0)" })
    #expect(try titles(sent, to: "/v1/b") == (0..<5).map { "b\($0)" })
    #expect(runs(in: sent) == [32, 5, 48], "the second lane goes at the end of the turn in which it came")
    opened.withLock { $0 = nil }
    await outbox.stop()
  }

  func batch() async throws {
    let outbox = try await open(StubTransport(), network: offline())
    let ids = try await outbox.enqueue(
      contentsOf: (0..<100).map { Endpoint<Data>.post("/posts", body: Note(title: "\($0)")) }, lane: "posts")
    #expect(ids.count == 100)
    #expect(ids == ids.sorted())
    #expect(try await outbox.pendingCount() == 100)
    // One request that cannot be stored refuses the whole batch.
    await #expect(throws: OutboxError.self) {
      try await outbox.enqueue(contentsOf: [Endpoint<Data>.post("/posts"), Endpoint<Data>.get("/posts")])
    }
    #expect(try await outbox.pendingCount() == 100)
    #expect(try await outbox.items().map(\.id) == ids)
    await outbox.stop()
  }

  func limit() async throws {
    let outbox = try await open(StubTransport(), network: offline()) { $0.maxQueuedBytes = 1_000 }
    let body = Data(repeating: 7, count: 600)
    let kept = try await outbox.enqueue(Endpoint<Data>.post("/uploads").body(body))
    await #expect {
      try await outbox.enqueue(Endpoint<Data>.post("/uploads").body(body))
    } throws: { ($0 as? OutboxError)?.kind == .limitReached }
    #expect(try await outbox.items().map(\.id) == [kept], "a refused item is not stored")
    // Below the limit again once the first is gone.
    try await outbox.cancel(kept)
    try await outbox.enqueue(Endpoint<Data>.post("/uploads").body(body))
    #expect(try await outbox.pendingCount() == 1)
    await outbox.stop()
  }

  func runs() async throws {
    let outbox = try await open(StubTransport(), network: offline())
    var ids: [OutboxItem.ID] = []
    for title in ["a", "b", "c", "d", "e"] {
      ids.append(try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: title)), lane: "posts"))
    }
    let store = outbox.store
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let answer = { (title: String) in
      RecordedResponse(status: .created, headerFields: [.location: "/posts/\(title)"], body: Data(title.utf8))
    }
    let first = try await store.markSending(ids[0])
    #expect(first.item.id == ids[0])
    // The next items up to the limit, in order, while each may go: the fourth may not, and it and what follows it
    // are left as they were.
    let refused = ids[3]
    let (_, claimed) = try await store.recordDeliveries(
      [(id: ids[0], response: answer("a"))], lane: "posts", at: now, claimingUpTo: 3,
      claimingNextIf: { $0.item.id != refused })
    #expect(claimed.map(\.item.id) == [ids[1], ids[2]])
    #expect(claimed.map(\.item.attempts) == [1, 1])
    #expect(
      try claimed.map { try JSONDecoder().decode(Note.self, from: $0.request.body ?? Data()).title } == ["b", "c"])
    var items = try await outbox.items()
    #expect(items.map(\.state) == [.delivered, .sending, .sending, .pending, .pending])
    #expect(items.map(\.attempts) == [1, 1, 1, 0, 0], "an item claimed and refused is not counted")
    // Two deliveries recorded together, each with its answer, and the rest of the lane claimed.
    let (_, rest) = try await store.recordDeliveries(
      [(id: ids[1], response: answer("b")), (id: ids[2], response: answer("c"))], lane: "posts",
      at: now, claimingUpTo: 8, claimingNextIf: { _ in true })
    #expect(rest.map(\.item.id) == [ids[3], ids[4]])
    for (id, title) in [(ids[1], "b"), (ids[2], "c")] {
      let result = try #require(try await store.result(for: id))
      #expect(result.item.state == .delivered)
      #expect(result.response?.headerFields[.location] == "/posts/\(title)")
      #expect(result.body == Data(title.utf8))
    }
    // A paused lane claims nothing more.
    try await store.setLane("posts", pausedBecause: "a 401")
    let (_, none) = try await store.recordDeliveries(
      [(id: ids[3], response: answer("d"))], lane: "posts", at: now, claimingUpTo: 8,
      claimingNextIf: { _ in true })
    #expect(none.isEmpty)
    items = try await outbox.items()
    #expect(items.map(\.state) == [.delivered, .delivered, .delivered, .delivered, .sending])
    await outbox.stop()
  }

  func claimsOfSeveralLanes() async throws {
    let outbox = try await open(StubTransport(), network: offline())
    var ids: [String: OutboxItem.ID] = [:]
    for title in ["a0", "b0", "a1", "c0", "d0"] {
      let lane = String(title.prefix(1))
      ids[title] = try await outbox.enqueue(Endpoint<Data>.post("/\(lane)", body: Note(title: title)), lane: lane)
    }
    let store = outbox.store
    try await store.setLane("d", pausedBecause: "a 401")
    try await outbox.cancel(ids["c0"]!)
    // Of the lanes' first items, those still first and of a lane that may go are claimed together; an item behind
    // its lane's first, one cancelled, and the first of a paused lane are left as they were.
    let claims = try await store.claimHeads(["a1", "b0", "a0", "c0", "d0"].map { ids[$0]! })
    #expect(Set(claims.map(\.item.id)) == [ids["a0"]!, ids["b0"]!])
    #expect(claims.map(\.item.state) == [.sending, .sending])
    #expect(
      try Set(claims.map { try JSONDecoder().decode(Note.self, from: $0.request.body ?? Data()).title })
        == ["a0", "b0"])
    #expect(claims.allSatisfy { $0.request.idempotencyKey == $0.item.idempotencyKey })
    let items = try await outbox.items()
    #expect(items.map(\.state) == [.sending, .sending, .pending, .cancelled, .pending])
    #expect(items.map(\.attempts) == [1, 1, 0, 0, 0])
    #expect(try await store.claimHeads([]).isEmpty)
    await outbox.stop()
  }

  func laneHeads() async throws {
    let outbox = try await open(StubTransport(), network: offline())
    var ids: [String: OutboxItem.ID] = [:]
    for title in ["a0", "b0", "a1", "c0", "d0", "e0", "e1"] {
      let lane = String(title.prefix(1))
      ids[title] = try await outbox.enqueue(Endpoint<Data>.post("/\(lane)", body: Note(title: title)), lane: lane)
    }
    let store = outbox.store
    try await store.setLane("d", pausedBecause: "a 401")
    // Every lane's first item (in an order of the store's choosing: a fleet's workers each start elsewhere); a busy
    // lane (here the second enqueued) is passed over, not the end of what is read, and a paused lane has none.
    func firstItems(excluding busy: Set<String>) async throws -> Set<OutboxItem.ID> {
      Set(try await store.laneHeads(excluding: busy).map(\.item.id))
    }
    #expect(try await firstItems(excluding: []) == Set(["a0", "b0", "c0", "e0"].map { ids[$0]! }))
    #expect(try await firstItems(excluding: ["b"]) == Set(["a0", "c0", "e0"].map { ids[$0]! }))
    let heads = try await store.laneHeads(excluding: ["a", "c"])
    #expect(Set(heads.map(\.item.id)) == Set(["b0", "e0"].map { ids[$0]! }))
    #expect(heads.map(\.item.state) == [.pending, .pending])
    #expect(heads.allSatisfy { $0.dependency == nil })
    #expect(try await firstItems(excluding: ["a", "b", "c", "e"]).isEmpty)
    await outbox.stop()
  }

  func bindingsInARun() async throws {
    let transport = StubTransport(
      .post("/v1/posts").reply { request in
        let title = try request.decodeBody(as: Note.self).title
        return .json(Created(id: title == "c" ? 2 : 1, slug: title), status: .created)
      },
      .put("/v1/posts/2/image").reply(.status(.noContent)))
    let network = offline()
    let outbox = try await open(transport, network: network)
    var ids: [OutboxItem.ID] = []
    for title in ["a", "b", "c"] {
      ids.append(try await outbox.enqueue(Endpoint<Created>.post("/posts", body: Note(title: title)), lane: "posts"))
    }
    // The second and third items are sent in the run the first one's record claims: the third's answer, the run's
    // last, is bound into the item that waits for it when that run is recorded.
    let image = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(Data([0xFF])), lane: "pictures", after: ids[2],
      bindings: [.json("id", at: "/id")])
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    let items = try await outbox.items()
    #expect(items.map(\.id) == ids + [image])
    #expect(items.allSatisfy { $0.state == .delivered && $0.attempts == 1 })
    #expect(try titles(transport.requests, to: "/v1/posts") == ["a", "b", "c"])
    #expect(transport.requests.last?.request.path == "/v1/posts/2/image")
    await outbox.stop()
  }

  func failureInARun() async throws {
    let transport = StubTransport(
      .post("/v1/posts").reply { request in
        try request.decodeBody(as: Note.self).title == "c" ? .status(.unprocessableContent) : .status(.created)
      })
    let network = offline()
    let outbox = try await open(transport, network: network)
    var ids: [OutboxItem.ID] = []
    for title in ["a", "b", "c", "d", "e", "f"] {
      ids.append(try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: title)), lane: "posts"))
    }
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    // The items after the rejected one were claimed with the run it was in, given back when it failed, and sent
    // after it: once each, counted once.
    #expect(try titles(transport.requests, to: "/v1/posts") == ["a", "b", "c", "d", "e", "f"])
    let items = try await outbox.items()
    #expect(items.map(\.id) == ids)
    #expect(items.map(\.state) == [.delivered, .delivered, .deadLetter, .delivered, .delivered, .delivered])
    #expect(items.map(\.attempts) == [1, 1, 1, 1, 1, 1])
    await outbox.stop()
  }

  /// The store's count and body bytes of the waiting items are those of its items, after each kind of change.
  func expectTotals(
    _ outbox: Outbox, _ step: String, count expected: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let waiting = try await outbox.items(in: [.pending, .sending])
    #expect(waiting.count == expected, "\(step): waiting items", sourceLocation: sourceLocation)
    #expect(try await outbox.store.waitingCount() == waiting.count, "\(step): count", sourceLocation: sourceLocation)
    #expect(
      try await outbox.store.waitingBytes() == waiting.reduce(0) { $0 + $1.bodyLength }, "\(step): bytes",
      sourceLocation: sourceLocation)
  }

  func waitingTotals() async throws {
    let transport = StubTransport(
      .post("/v1/posts").reply(.json(Created(id: 42, slug: "a-much-longer-slug"), status: .created)),
      .put("/v1/posts/42/caption").reply(.status(.noContent)),
      .post("/v1/rejected").reply(.status(.unprocessableContent), .status(.created)),
      .post("/v1/later").reply(.status(.created)))
    let network = offline()
    let outbox = try await open(transport, network: network)
    try await expectTotals(outbox, "empty", count: 0)
    let post = try await outbox.enqueue(Endpoint<Created>.post("/posts", body: Note(title: "a")), lane: "posts")
    // Its body grows when the post's slug is bound into it.
    _ = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/caption").body(Data("{slug}".utf8)), lane: "captions", after: post,
      bindings: [.json("id", at: "/id"), .json("slug", at: "/slug")])
    let rejected = try await outbox.enqueue(
      Endpoint<Data>.post("/rejected").body(Data(repeating: 1, count: 300)), lane: "rejected")
    let dependant = try await outbox.enqueue(
      Endpoint<Data>.post("/later").body(Data(repeating: 2, count: 50)), lane: "later", after: rejected)
    let cancelled = try await outbox.enqueue(Endpoint<Data>.post("/later").body(Data(repeating: 3, count: 70)))
    let edited = try await outbox.enqueue(Endpoint<Data>.post("/later").body(Data(repeating: 4, count: 10)))
    try await outbox.enqueue(
      contentsOf: [Endpoint<Data>.post("/later").body(Data([5])), .post("/later").body(Data([6, 6]))], lane: "batch")
    try await expectTotals(outbox, "enqueued", count: 8)
    try await outbox.cancel(cancelled)
    try await expectTotals(outbox, "one cancelled", count: 7)
    try await outbox.edit(edited, to: Endpoint<Data>.post("/later").body(Data(repeating: 4, count: 900)))
    try await expectTotals(outbox, "one edited to a larger body", count: 7)
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    let items = try await outbox.items()
    #expect(items.first { $0.id == rejected }?.state == .deadLetter)
    #expect(items.first { $0.id == dependant }?.state == .cancelled)
    try await expectTotals(outbox, "drained: delivered, a dead letter and its cancelled dependant", count: 0)
    // Offline again, so that the requeued item waits while the totals are read.
    network.set(.offline)
    try await outbox.requeue(rejected)
    try await expectTotals(outbox, "a dead letter requeued", count: 1)
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    try await expectTotals(outbox, "the requeued item delivered", count: 0)
    await outbox.stop()
  }

  func cancelAndEdit() async throws {
    let transport = StubTransport(.post("/v1/posts").reply(.status(.created)))
    let network = offline()
    let outbox = try await open(transport, network: network)
    let first = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "a")), lane: "posts")
    let dependant = try await outbox.enqueue(
      Endpoint<Data>.post("/posts", body: Note(title: "b")), lane: "other", after: first)
    let edited = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "c")), lane: "edits")
    let oldKey = try #require(try await outbox.items().first { $0.id == edited }?.idempotencyKey)
    try await outbox.cancel(first)
    try await outbox.edit(edited, to: Endpoint<Data>.post("/posts", body: Note(title: "c, edited")))
    var items = try await outbox.items()
    #expect(items.map(\.state) == [.cancelled, .cancelled, .pending])
    #expect(items[1].reason?.contains("\(first)") == true, "the dependant says which item it waited for")
    #expect(items[2].idempotencyKey != oldKey, "an edited item has a new key")
    await #expect { try await outbox.cancel(first) } throws: { ($0 as? OutboxError)?.kind == .noSuchItem }
    network.set(NetworkPath(isOnline: true))
    try await outbox.waitUntilDrained()
    items = try await outbox.items()
    #expect(items.map(\.state) == [.cancelled, .cancelled, .delivered])
    #expect(try titles(transport.requests, to: "/v1/posts") == ["c, edited"])
    #expect(transport.requests.first?.request.headerFields[keyField] == "\"\(items[2].idempotencyKey)\"")
    await #expect {
      try await outbox.edit(edited, to: Endpoint<Data>.post("/posts", body: Note(title: "late")))
    } throws: { ($0 as? OutboxError)?.kind == .noSuchItem }
    _ = dependant
    await outbox.stop()
  }

  func results() async throws {
    let transport = StubTransport(
      .post("/v1/posts").reply(
        .json(Created(id: 1, slug: "a"), status: .created), .json(Created(id: 2, slug: "b"), status: .created)),
      .post("/v1/reports").reply(.status(.badRequest)),
      .post("/v1/profile").reply(.status(.ok)))
    do {
      let outbox = try await open(transport)
      try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "a")), kind: Outbox.Kind("post"))
      try await outbox.enqueue(Endpoint<Data>.post("/reports", body: Note(title: "r")), kind: Outbox.Kind("post"))
      try await outbox.enqueue(Endpoint<Data>.post("/profile", body: Note(title: "p")), kind: Outbox.Kind("profile"))
      try await outbox.waitUntilDrained()
      await outbox.stop()
    }
    // The app starts again and registers its handler: the results of before reach it, in order.
    let relaunched = try await open(transport)
    let seen = Locked<[OutboxResult]>([])
    await relaunched.handleResults(ofKind: "post") { result in seen.withLock { $0.append(result) } }
    let before = seen.withLock { $0 }
    #expect(before.map(\.item.target) == ["/posts", "/reports"])
    #expect(before.map(\.isDelivered) == [true, false])
    #expect(try before.first?.decode(Created.self) == Created(id: 1, slug: "a"))
    #expect(before.last?.response?.status == .badRequest)
    // A result is given once: registering again finds nothing new, and a new delivery reaches the handler.
    await relaunched.handleResults(ofKind: "post") { result in seen.withLock { $0.append(result) } }
    #expect(seen.withLock { $0.count } == 2)
    try await relaunched.enqueue(Endpoint<Data>.post("/posts", body: Note(title: "b")), kind: Outbox.Kind("post"))
    try await relaunched.waitUntilDrained()
    // The handler runs once the answer was recorded, so the count may reach zero just before it.
    try await waitUntil("the third result reaches the handler") { seen.withLock { $0.count } >= 3 }
    let after = seen.withLock { $0 }
    #expect(after.count == 3)
    #expect(try after.last?.decode(Created.self) == Created(id: 2, slug: "b"))
    await relaunched.stop()
  }
}

/// Sends through a stub, noting the time of `clock` at each request.
private final class ClockedTransport: HTTPTransport {
  let stub: StubTransport
  let clock: TestCallClock
  private let sent = Locked<[Date]>([])

  init(_ stub: StubTransport, clock: TestCallClock) {
    self.stub = stub
    self.clock = clock
  }

  /// The clock's time at each request, in order.
  var times: [Date] { sent.withLock { $0 } }

  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    sent.withLock { $0.append(clock.now) }
    return try await stub.send(request, body: body, options: options)
  }
}
