import Courier
import Crypto
import Foundation
import GRDB
import HTTPTypes

/// Writes that are never lost and never applied twice: unsafe requests stored durably, sent through an `APIClient`
/// when the network allows, each with an `Idempotency-Key` so that a resend after a lost answer is applied once.
///
/// ```swift
/// let outbox = try Outbox(client: client, path: Outbox.defaultPath())
/// let id = try await outbox.enqueue(Endpoint<Post>.post("/posts", body: draft), lane: "posts")
/// for await event in await outbox.events() { print(event) }
/// ```
///
/// An item is enqueued once its row committed; it is sent through `client`, so the client's interceptors add
/// credentials, trace and log at send time (credentials are never stored). Items of one lane go out one at a time,
/// in order; lanes go in parallel. The outbox decides only *when* and *what next*, from the typed outcome of each
/// attempt: delivered; sent again later with backoff (a transport failure, 408, 409, 425, 429, 500, 502, 503, 504);
/// the lane paused (401); or a dead letter (any other 4xx, 422 among them), kept with the answer. An item found
/// "sending" after a restart is sent again with the same key. See <doc:OfflineWrites>.
public actor Outbox {
  let client: APIClient
  let store: any OutboxStore
  let configuration: Configuration
  private var subscribers: [UUID: AsyncStream<OutboxEvent>.Continuation] = [:]
  /// The lanes with an attempt in flight.
  private var busyLanes: Set<String> = []
  /// The items being sent now.
  private(set) var inFlight: Set<OutboxItem.ID> = [] {
    didSet {
      guard !flightWaiters.isEmpty else { return }
      let (done, waiting) = flightWaiters.reduce(into: ([CheckedContinuation<Void, Never>](), [FlightWaiter]())) {
        if $1.items.isDisjoint(with: inFlight) { $0.0.append($1.continuation) } else { $0.1.append($1) }
      }
      flightWaiters = waiting
      for waiter in done { waiter.resume() }
    }
  }
  typealias FlightWaiter = (items: Set<OutboxItem.ID>, continuation: CheckedContinuation<Void, Never>)
  /// Callers of `finishAttemptsInFlight()`, with the items they wait for.
  var flightWaiters: [FlightWaiter] = []
  /// How many delivery passes began.
  private(set) var passes: UInt64 = 0
  /// Callers of `drainUntilDone()`, released by the first pass that began after they asked and left nothing in flight
  /// and nothing more to start.
  var settleWaiters: [(after: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
  private var lifecycle: AppLifecycleObserver?
  private var loop: Task<Void, Never>?
  private var wake: AsyncStream<Void>.Continuation?
  private var drainWaiters: [CheckedContinuation<Void, Never>] = []
  /// Whether `drain()` asked to send what waits in a backoff now.
  private var ignoreBackoffOnce = false
  private var lastReportedCount: Int?
  /// The items and body bytes waiting, while known: an enqueue adds to them, any other change forgets them.
  private var waiting: (count: Int, bytes: Int)? {
    didSet { if waiting == nil { waitingGeneration &+= 1 } }
  }
  /// Counts the times ``waiting`` was forgotten, so that totals read from the store across a suspension are kept only
  /// when nothing changed meanwhile.
  private var waitingGeneration: UInt64 = 0
  /// The handlers of final results, by kind name.
  private var resultHandlers: [String: @Sendable (OutboxResult) async -> Void] = [:]
  /// Items whose result a handler is taking now, so that none is given the same result twice at once.
  private var handling: Set<OutboxItem.ID> = []

  /// An outbox whose items live in a SQLite database at `path` (made if missing), sent through `client`.
  ///
  /// Throws ``OutboxError/Kind/corruptStore`` when the file is not a database or is damaged, and
  /// ``OutboxError/Kind/newerSchema`` when a newer version of the outbox wrote it; the file is left as it is.
  public init(client: APIClient, path: String, configuration: Configuration = Configuration()) throws {
    try self.init(client: client, store: SQLiteOutboxStore(path: path), configuration: configuration)
  }

  /// An outbox whose tables live in the app's own database, so that
  /// ``enqueue(_:lane:after:bindings:kind:constraints:in:)`` joins the app's write.
  public init(client: APIClient, database: any DatabaseWriter, configuration: Configuration = Configuration()) throws {
    try self.init(client: client, store: SQLiteOutboxStore(database: database), configuration: configuration)
  }

  package init(client: APIClient, store: any OutboxStore, configuration: Configuration) {
    self.client = client
    self.store = store
    self.configuration = configuration
  }

  // MARK: Enqueue

  /// Stores `endpoint`'s request and returns its ID once the row committed; sending starts at once when online.
  ///
  /// - Parameters:
  ///   - endpoint: The write. Its body must be replayable (in memory, a file, a form): a one-shot stream throws
  ///     ``OutboxError/Kind/invalidRequest``. A safe method (GET, HEAD, OPTIONS) is refused the same way: a read that
  ///     cannot be sent now belongs to the cache, not the outbox.
  ///   - lane: Items of one lane are sent one at a time, in order.
  ///   - after: An item that must be delivered first.
  ///   - bindings: Values taken from the answer of `after`, put where the request says `{name}` (see
  ///     ``OutboxBinding``). When `after` was delivered already, they are bound now, and a value its answer does not
  ///     hold throws ``OutboxError/Kind/bindingFailed``.
  ///   - kind: The app's name for this kind of write, and its version.
  ///   - constraints: When the item may be sent.
  @discardableResult
  public func enqueue<Value>(
    _ endpoint: Endpoint<Value>, lane: String = "default", after: OutboxItem.ID? = nil,
    bindings: [OutboxBinding] = [], kind: Kind = Kind("request"), constraints: OutboxConstraints = .none
  ) async throws -> OutboxItem.ID {
    try OutboxBinding.validate(bindings, after: after, constraints: constraints)
    let request = try await Self.stored(endpoint, client: client)
    try await checkRoom(for: request.body?.count ?? 0)
    let item = NewItem(
      request: request, lane: lane, kind: kind.name, kindVersion: kind.version, after: after, bindings: bindings,
      constraints: constraints, enqueuedAt: configuration.clock.now)
    let id = try await store.insert(item)
    adjustWaiting(count: 1, bytes: request.body?.count ?? 0)
    emit(.enqueued(id))
    if !configuration.monitor.currentPath.isOnline { emit(.waiting(id, .offline)) }
    await reportCount()
    start()
    wakeUp()
    return id
  }

  /// Stores the requests of `endpoints` in one transaction, in order in `lane`, and returns their IDs once it
  /// committed: all of them or none. Faster than one enqueue each when many writes are made at once.
  @discardableResult
  public func enqueue<Value>(
    contentsOf endpoints: [Endpoint<Value>], lane: String = "default", kind: Kind = Kind("request"),
    constraints: OutboxConstraints = .none
  ) async throws -> [OutboxItem.ID] {
    var items: [NewItem] = []
    var bytes = 0
    let now = configuration.clock.now
    for endpoint in endpoints {
      let request = try await Self.stored(endpoint, client: client)
      bytes += request.body?.count ?? 0
      items.append(
        NewItem(
          request: request, lane: lane, kind: kind.name, kindVersion: kind.version, after: nil,
          constraints: constraints, enqueuedAt: now))
    }
    try await checkRoom(for: bytes)
    let ids = try await store.insert(items)
    adjustWaiting(count: ids.count, bytes: bytes)
    let offline = !configuration.monitor.currentPath.isOnline
    for id in ids {
      emit(.enqueued(id))
      if offline { emit(.waiting(id, .offline)) }
    }
    await reportCount()
    start()
    wakeUp()
    return ids
  }

  /// Stores `endpoint`'s request in `db`, within the app's own write: the app's change and the item commit or roll
  /// back together. Only for an outbox made with ``init(client:database:configuration:)`` on the same database, and
  /// a body in memory. Call ``drain()`` after the transaction committed to send at once.
  @discardableResult
  public nonisolated func enqueue<Value>(
    _ endpoint: Endpoint<Value>, lane: String = "default", after: OutboxItem.ID? = nil,
    bindings: [OutboxBinding] = [], kind: Kind = Kind("request"), constraints: OutboxConstraints = .none,
    in db: Database
  ) throws -> OutboxItem.ID {
    try OutboxBinding.validate(bindings, after: after, constraints: constraints)
    let (request, body) = try Self.built(endpoint, client: client)
    if let body, body.bufferedData == nil {
      throw OutboxError(.invalidRequest, "An enqueue within a transaction needs the body in memory")
    }
    let stored = try Self.stored(request, body: body?.bufferedData, client: client)
    let item = NewItem(
      request: stored, lane: lane, kind: kind.name, kindVersion: kind.version, after: after, bindings: bindings,
      constraints: constraints, enqueuedAt: configuration.clock.now)
    return try SQLiteOutboxStore.insert(item, in: db)
  }

  // MARK: Control

  /// Starts sending what waits (an enqueue and ``drain()`` start it too); items left "sending" by a previous run are
  /// sent again with their key. Items of kinds not in ``Configuration/kinds`` are quarantined first.
  public func start() {
    if lifecycle == nil, configuration.observesAppLifecycle {
      lifecycle = AppLifecycleObserver(outbox: self, center: configuration.notificationCenter)
    }
    guard loop == nil else { return }
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    wake = continuation
    loop = Task { [weak self] in await self?.run(wakes: stream) }
  }

  /// Whether the outbox is sending (started, and not stopped).
  var isRunning: Bool { loop != nil }

  /// Sends what waits now, also items waiting out a backoff (never before a server's `Retry-After`), and wakes the
  /// outbox if it was idle.
  public func drain() {
    // Items may have been enqueued within the app's own transactions meanwhile.
    waiting = nil
    ignoreBackoffOnce = true
    start()
    wakeUp()
  }

  /// Returns once no item is pending or sending (also when some became dead letters); throws `CancellationError`
  /// when the calling task is cancelled first.
  public func waitUntilDrained() async throws {
    start()
    while try await store.waitingCount() > 0 {
      try Task.checkCancellation()
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          drainWaiters.append(continuation)
          // The delivery loop reports the count when it wakes, and releases the waiters once it is zero.
          wakeUp()
        }
      } onCancel: {
        Task { await self.releaseDrainWaiters() }
      }
      try Task.checkCancellation()
    }
  }

  /// Releases the callers of `drainUntilDone()` that asked before pass `pass` began (all of them with `all`).
  func releaseSettleWaiters(settledBy pass: UInt64 = .max, all: Bool = false) {
    let (done, waiting) = settleWaiters.reduce(
      into: ([CheckedContinuation<Void, Never>](), [(after: UInt64, continuation: CheckedContinuation<Void, Never>)]())
    ) {
      if all || $1.after < pass { $0.0.append($1.continuation) } else { $0.1.append($1) }
    }
    settleWaiters = waiting
    for waiter in done { waiter.resume() }
  }

  /// Lets every caller of ``waitUntilDrained()`` look again: those not cancelled wait on.
  private func releaseDrainWaiters() {
    for waiter in drainWaiters { waiter.resume() }
    drainWaiters = []
  }

  /// Stops sending; items in flight finish their attempt. ``start()`` sends again.
  public func stop() async {
    let running = loop
    loop = nil
    wake?.finish()
    wake = nil
    running?.cancel()
    await running?.value
    releaseSettleWaiters(all: true)
  }

  /// A new stream of events, from now on; it ends when the consumer stops iterating.
  public func events() -> AsyncStream<OutboxEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: OutboxEvent.self)
    let id = UUID()
    subscribers[id] = continuation
    continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
    return stream
  }

  /// The items, oldest first; only those in `states` when given.
  public func items(in states: Set<OutboxItem.State>? = nil) async throws -> [OutboxItem] {
    try await store.items(in: states)
  }

  /// How many items wait to be delivered (pending or sending): "3 changes waiting".
  public func pendingCount() async throws -> Int {
    try await store.waitingCount()
  }

  /// The number of items waiting now, then each change of it: what a "3 changes waiting" badge shows. The stream
  /// ends when the consumer stops iterating.
  public func pendingCounts() async -> AsyncStream<Int> {
    let changes = events()
    let now = try? await store.waitingCount()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
    if let now { continuation.yield(now) }
    let forward = Task {
      for await event in changes {
        if case .pendingCount(let count) = event { continuation.yield(count) }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in forward.cancel() }
    return stream
  }

  /// Cancels a pending item; its dependants that cancel with it are cancelled too.
  public func cancel(_ id: OutboxItem.ID) async throws {
    waiting = nil
    let now = configuration.clock.now
    guard
      try await store.transition(
        id, from: [.pending], to: .cancelled, reason: "cancelled by the app", newKey: nil, at: now)
    else { throw OutboxError(.noSuchItem, "No pending outbox item \(id) to cancel") }
    emit(.cancelled(id, reason: "cancelled by the app"))
    try await cancelDependants(of: id, because: "the item \(id) it waits for was cancelled")
    await reportCount()
  }

  /// Pauses `lane`: its items wait until ``resume(lane:)``.
  public func pause(lane: String) async throws {
    try await store.setLane(lane, pausedBecause: "paused by the app")
  }

  /// Resumes `lane` (paused by the app, or by a 401 once a fresh token is there).
  public func resume(lane: String) async throws {
    try await store.setLane(lane, pausedBecause: nil)
    wakeUp()
  }

  /// Sends a dead letter again, with a new key.
  public func requeue(_ id: OutboxItem.ID) async throws {
    waiting = nil
    guard
      try await store.transition(
        id, from: [.deadLetter, .quarantined], to: .pending, reason: nil, newKey: UUID().uuidString.lowercased(),
        at: configuration.clock.now)
    else { throw OutboxError(.noSuchItem, "No dead letter \(id) to requeue") }
    await reportCount()
    wakeUp()
  }

  /// Forgets a dead letter: it becomes cancelled.
  public func discard(_ id: OutboxItem.ID) async throws {
    guard
      try await store.transition(
        id, from: [.deadLetter, .quarantined], to: .cancelled, reason: "discarded by the app", newKey: nil,
        at: configuration.clock.now)
    else { throw OutboxError(.noSuchItem, "No dead letter \(id) to discard") }
  }

  /// Replaces a pending item's request with `endpoint`'s (same method and target); it gets a new key.
  public func edit<Value>(_ id: OutboxItem.ID, to endpoint: Endpoint<Value>) async throws {
    let request = try await Self.stored(endpoint, client: client)
    guard try await store.edit(id, request: request, at: configuration.clock.now) else {
      throw OutboxError(.noSuchItem, "No pending outbox item \(id) to edit")
    }
  }

  /// Gives every final result of items of `kind` — delivered, or a dead letter — to `handler`, in order, also those
  /// recorded while no handler was registered (before a relaunch, or while the app was in the background).
  ///
  /// ```swift
  /// await outbox.handleResults(ofKind: "post") { result in
  ///   guard result.isDelivered, let post = try? result.decode(Post.self) else { return }
  ///   await store.replaceDraft(result.item.id, with: post)
  /// }
  /// ```
  ///
  /// A result counts as taken once `handler` returns: one whose handler was cut short by the app's end is given again
  /// at the next registration, so a handler should be safe to run twice for one item. Register at launch, before
  /// ``start()``; a new handler for a kind replaces the one before.
  public func handleResults(ofKind kind: String, _ handler: @escaping @Sendable (OutboxResult) async -> Void) async {
    resultHandlers[kind] = handler
    guard let backlog = try? await store.unhandledResults(ofKind: kind) else { return }
    for id in backlog { await handleResult(of: id, kind: kind) }
  }

  /// Gives the result of `id` to its kind's handler, once it returns, records that it was taken.
  private func handleResult(of id: OutboxItem.ID, kind: String) async {
    guard let handler = resultHandlers[kind], handling.insert(id).inserted else { return }
    defer { handling.remove(id) }
    guard let result = try? await store.result(for: id) else { return }
    await handler(result)
    try? await store.markHandled(id)
  }

  // MARK: Delivery

  private func run(wakes: AsyncStream<Void>) async {
    waiting = nil
    if let kinds = configuration.kinds {
      let known = Set(kinds.map { KindVersion(kind: $0.name, version: $0.version) })
      if let quarantined = try? await store.quarantine(unless: known) {
        for (id, reason) in quarantined { emit(.quarantined(id, reason: reason)) }
      }
    }
    // One watcher for the whole run: the network coming (or going) wakes the outbox.
    let watcher = Task { [weak self, monitor = configuration.monitor] in
      for await _ in monitor.onlineChanges() { await self?.wakeUp() }
    }
    defer { watcher.cancel() }
    var wakeIterator = wakes.makeAsyncIterator()
    while !Task.isCancelled {
      passes += 1
      let pass = passes
      let nextWake = await sendWhatIsReady()
      await reportCount()
      // Settled: nothing in flight, and nothing asked to go again at once.
      if busyLanes.isEmpty, (nextWake ?? .infinity) > 0 { releaseSettleWaiters(settledBy: pass) }
      // Sleep until something changes: an enqueue, an attempt finished, the network, or the next due time.
      let timer: Task<Void, Never>? = nextWake.map { seconds in
        Task { [weak self, clock = configuration.clock] in
          try? await clock.sleep(seconds: seconds)
          if !Task.isCancelled { await self?.wakeUp() }
        }
      }
      let woken = await wakeIterator.next() != nil
      timer?.cancel()
      guard woken else { break }
    }
  }

  /// Starts a lane runner for every lane head that may go now; returns in how many seconds the earliest waiting one
  /// may go, if any.
  private func sendWhatIsReady() async -> TimeInterval? {
    // Offline, nothing can go: the network coming back wakes the outbox (enqueues said they wait for it).
    guard configuration.monitor.currentPath.isOnline else { return nil }
    let candidates: [Candidate]
    do {
      candidates = try await store.laneHeads(excluding: busyLanes)
    } catch {
      return 1
    }
    let forced = ignoreBackoffOnce
    ignoreBackoffOnce = false
    var earliest: TimeInterval?
    for candidate in candidates where busyLanes.count < configuration.maxConcurrentLanes {
      // A runner may have taken the lane while this pass was suspended.
      guard !busyLanes.contains(candidate.item.lane) else { continue }
      switch await consider(candidate, forced: forced) {
      case .go:
        let item = candidate.item
        busyLanes.insert(item.lane)
        inFlight.insert(item.id)
        Task { await self.runLane(from: item) }
      case .later(let seconds):
        earliest = min(earliest ?? seconds, seconds)
      case .waits:
        break
      }
    }
    return earliest
  }

  /// What to do with a lane's first item now.
  private enum Verdict {
    /// Send it.
    case go
    /// Look again in so many seconds (0: at once, something changed).
    case later(TimeInterval)
    /// It waits for something that wakes the outbox (the network, an earlier item, the app).
    case waits
  }

  /// Decides whether `candidate` may be sent now; an item past its deadline or its key's retention is dealt with here.
  private func consider(_ candidate: Candidate, forced: Bool) async -> Verdict {
    let item = candidate.item
    let now = configuration.clock.now
    let path = configuration.monitor.currentPath
    if let giveUp = candidate.constraints.giveUpAfter, now > giveUp {
      await deadLetter(item, OutboxError(.limitReached, "The item's deadline \(giveUp) passed before it was delivered"))
      return .later(0)
    }
    if now.timeIntervalSince(item.enqueuedAt) > configuration.keyRetention {
      await reconcile(item)
      return .later(0)
    }
    switch candidate.dependency {
    case .delivered?, nil: break
    case .deadLetter?, .cancelled?, .quarantined?:
      if candidate.constraints.ifDependencyFails == .cancel {
        // Its dependency failed after it was enqueued; cancel it as the failure would have.
        try? await cancelDependants(of: item.after!, because: "the item \(item.after!) it waits for failed")
        return .later(0)
      }
    case .pending?, .sending?:
      return .waits
    }
    guard path.isOnline else {
      emit(.waiting(item.id, .offline))
      return .waits
    }
    if (path.isExpensive && !candidate.constraints.allowsExpensiveNetwork)
      || (path.isConstrained && !candidate.constraints.allowsConstrainedNetwork)
    {
      emit(.waiting(item.id, .constraint))
      return .waits
    }
    if let notBefore = candidate.constraints.notBefore, notBefore > now {
      emit(.waiting(item.id, .constraint))
      return .later(notBefore.timeIntervalSince(now))
    }
    // A drain skips a backoff, but never a wait the server asked for.
    if item.nextAttemptAt > now, !forced || (candidate.heldUntil.map { $0 > now } ?? false) {
      return .later(item.nextAttemptAt.timeIntervalSince(now))
    }
    return .go
  }

  /// Items a lane runner sends in a row before it gives its place back, so that lanes beyond
  /// ``Configuration/maxConcurrentLanes`` get their turn.
  private static let itemsPerTurn = 32

  /// Whether `candidate` may be sent at once with nothing to do first: the last step of ``consider(_:forced:)``'s
  /// checks, none of which it needs here — what it cannot decide alone goes back to the delivery loop.
  static func mayGoAtOnce(_ candidate: Candidate, now: Date, path: NetworkPath, keyRetention: TimeInterval) -> Bool {
    let item = candidate.item
    let constraints = candidate.constraints
    return (candidate.dependency == nil || candidate.dependency == .delivered)
      && constraints.giveUpAfter.map { now <= $0 } ?? true
      && now.timeIntervalSince(item.enqueuedAt) <= keyRetention
      && path.isOnline
      && (!path.isExpensive || constraints.allowsExpensiveNetwork)
      && (!path.isConstrained || constraints.allowsConstrainedNetwork)
      && constraints.notBefore.map { $0 <= now } ?? true
      && item.nextAttemptAt <= now
  }

  /// What an attempt left for its lane.
  private enum AttemptOutcome {
    /// The lane's next item, already marked sending with the delivery's record.
    case claimed(Claim)
    /// The lane may go on: look at its next item.
    case goOn
    /// The lane waits (a backoff, a pause, a failure to record).
    case stop
  }

  /// Sends `first`, then the lane's next items while each may go at once; gives the lane back when one may not (the
  /// delivery loop takes it from there), after a turn, or when the outbox stops.
  private func runLane(from first: OutboxItem) async {
    let lane = first.lane
    var claimed = try? await store.markSending(first.id)
    if claimed == nil { inFlight.remove(first.id) }
    var sent = 0
    while let claim = claimed {
      sent += 1
      let mayContinue = isRunning && sent < Self.itemsPerTurn
      let outcome = await attempt(claim, claimingNext: mayContinue)
      inFlight.remove(claim.item.id)
      claimed = nil
      switch outcome {
      case .claimed(let next):
        inFlight.insert(next.item.id)
        claimed = next
      case .goOn where mayContinue:
        guard let candidate = try? await store.laneHead(lane), case .go = await consider(candidate, forced: false)
        else { break }
        inFlight.insert(candidate.item.id)
        claimed = try? await store.markSending(candidate.item.id)
        if claimed == nil { inFlight.remove(candidate.item.id) }
      case .goOn, .stop:
        break
      }
    }
    busyLanes.remove(lane)
    wakeUp()
  }

  /// Sends the claimed item once and records what came of it; with `claimingNext`, a delivery's record also claims the
  /// lane's next item when it may go at once.
  private func attempt(_ claim: Claim, claimingNext: Bool) async -> AttemptOutcome {
    let (item, request) = claim
    emit(.sending(item.id, attempt: item.attempts))
    let decision: DeliveryDecision
    var response: RecordedResponse?
    do {
      let endpoint = try endpoint(for: request)
      let answer = try await client.send(endpoint)
      response = RecordedResponse(status: answer.status, headerFields: answer.response.headerFields, body: answer.value)
      decision = DeliveryDecision.decide(
        status: answer.status, headerFields: answer.response.headerFields, now: configuration.clock.now)
    } catch {
      decision = DeliveryDecision.decide(failure: error)
      if let failure = error as? CourierError, let head = failure.response {
        response = RecordedResponse(status: head.status, headerFields: head.headerFields, body: failure.body ?? Data())
      }
    }
    if case .delivered = decision, let response {
      return await settleDelivery(item, response: response, claimingNext: claimingNext)
    }
    await settle(item, decision: decision, response: response)
    switch decision {
    case .delivered, .deadLetter: return .goOn
    case .retry, .pause: return .stop
    }
  }

  /// Records a delivery — and, in the same transaction, claims the lane's next item when it may go at once.
  private func settleDelivery(
    _ item: OutboxItem, response: RecordedResponse, claimingNext: Bool
  ) async
    -> AttemptOutcome
  {
    let now = configuration.clock.now
    let path = configuration.monitor.currentPath
    let retention = configuration.keyRetention
    let recorded: RecordResult
    let next: Claim?
    do {
      if claimingNext {
        (recorded, next) = try await store.recordDelivery(
          response, for: item.id, lane: item.lane, at: now,
          claimingNextIf: { Self.mayGoAtOnce($0, now: now, path: path, keyRetention: retention) })
      } else {
        (recorded, next) = (try await store.record(.delivered(response), for: item.id, lane: item.lane, at: now), nil)
      }
    } catch {
      // The answer could not be recorded: the item stays "sending" and is sent again, with its key, next time.
      await reportCount()
      return .stop
    }
    // One item fewer waits; dependants whose values were bound changed their bytes, and failed ones stopped waiting:
    // those are read again.
    if recorded.changedDependants { waiting = nil } else { adjustWaiting(count: -1, bytes: -item.bodyLength) }
    emit(.delivered(item.id, status: response.status))
    await handleResult(of: item.id, kind: item.kind)
    for failure in recorded.failures {
      emit(.deadLettered(failure.id, failure.error))
      try? await cancelDependants(of: failure.id, because: "the item \(failure.id) it waits for became a dead letter")
      if let failed = try? await store.result(for: failure.id) {
        await handleResult(of: failure.id, kind: failed.item.kind)
      }
    }
    await reportCount()
    return next.map(AttemptOutcome.claimed) ?? .goOn
  }

  private func settle(_ item: OutboxItem, decision: DeliveryDecision, response: RecordedResponse?) async {
    let now = configuration.clock.now
    do {
      switch decision {
      case .delivered:
        // A success without an answer to record cannot happen; settleDelivery records those that have one.
        break
      case .retry(let reason, let retryAfter):
        guard item.attempts < configuration.maxAttempts else {
          await deadLetter(
            item,
            OutboxError(
              .limitReached, "The item was sent \(item.attempts) times without success; last: \(reason)",
              status: response?.status), response: response)
          return
        }
        let delay = DeliveryDecision.backoff(
          afterAttempt: item.attempts, base: configuration.baseDelay, maximum: configuration.maxDelay,
          retryAfter: retryAfter, random: configuration.random())
        let until = now.addingTimeInterval(delay)
        let held = retryAfter.map { now.addingTimeInterval($0) }
        try await store.record(
          .retry(at: until, heldUntil: held, reason: reason), for: item.id, lane: item.lane, at: now)
        emit(.waiting(item.id, .backoff(until: until)))
      case .pause(let reason):
        try await store.record(.pauseLane(reason: reason), for: item.id, lane: item.lane, at: now)
        emit(.waiting(item.id, .paused(reason: reason)))
      case .deadLetter(let reason):
        await deadLetter(item, OutboxError(.rejected, reason, status: response?.status), response: response)
      }
    } catch {
      // The answer could not be recorded: the item stays "sending" and is sent again, with its key, next time.
    }
    await reportCount()
  }

  private func deadLetter(_ item: OutboxItem, _ error: OutboxError, response: RecordedResponse? = nil) async {
    waiting = nil
    let now = configuration.clock.now
    do {
      try await store.record(
        .deadLetter(reason: error.message, response: response), for: item.id, lane: item.lane, at: now)
      emit(.deadLettered(item.id, error))
      try await cancelDependants(of: item.id, because: "the item \(item.id) it waits for became a dead letter")
      await handleResult(of: item.id, kind: item.kind)
    } catch {}
  }

  private func reconcile(_ item: OutboxItem) async {
    waiting = nil
    let now = configuration.clock.now
    switch await configuration.reconcile(item) {
    case .resendWithNewKey:
      // A new key, and a new enqueue date, so the retention counts from now.
      _ = try? await store.transition(
        item.id, from: [.pending, .sending], to: .pending, reason: "resent with a new key after the key expired",
        newKey: UUID().uuidString.lowercased(), at: now)
      try? await store.restartRetention(item.id, at: now)
    case .drop:
      let reason = "dropped: it waited longer than the server keeps idempotency keys"
      _ = try? await store.transition(
        item.id, from: [.pending, .sending], to: .cancelled, reason: reason, newKey: nil, at: now)
      emit(.cancelled(item.id, reason: reason))
      try? await cancelDependants(of: item.id, because: "the item \(item.id) it waits for was dropped")
    case .deadLetter:
      await deadLetter(
        item,
        OutboxError(
          .keyExpired,
          "The item waited \(Int(now.timeIntervalSince(item.enqueuedAt))) s, longer than the server keeps "
            + "idempotency keys (\(Int(configuration.keyRetention)) s)"))
    }
  }

  private func cancelDependants(of id: OutboxItem.ID, because reason: String) async throws {
    waiting = nil
    for dependant in try await store.cancelDependants(of: id, reason: reason, at: configuration.clock.now) {
      emit(.cancelled(dependant, reason: reason))
    }
  }

  /// Adds to the known totals of what waits; when they are not known, makes sure a read of them that is under way
  /// is not kept.
  private func adjustWaiting(count: Int, bytes: Int) {
    if waiting != nil {
      waiting!.count += count
      waiting!.bytes += bytes
    } else {
      waitingGeneration &+= 1
    }
  }

  /// The items and body bytes waiting, read from the store when not known.
  private func waitingTotals() async throws -> (count: Int, bytes: Int) {
    if let waiting { return waiting }
    let generation = waitingGeneration
    let totals = (count: try await store.waitingCount(), bytes: try await store.waitingBytes())
    // Another task of this actor may have changed the items while the store was read: keep nothing stale.
    if generation == waitingGeneration { waiting = totals }
    return totals
  }

  private func checkRoom(for bytes: Int) async throws {
    let held = try await waitingTotals().bytes
    guard held + bytes <= configuration.maxQueuedBytes else {
      throw OutboxError(
        .limitReached,
        "The outbox holds \(held) bytes waiting; \(bytes) more would pass its limit of \(configuration.maxQueuedBytes)")
    }
  }

  // MARK: Events

  private func emit(_ event: OutboxEvent) {
    for subscriber in subscribers.values { subscriber.yield(event) }
  }

  private func unsubscribe(_ id: UUID) {
    subscribers[id] = nil
  }

  private func wakeUp() {
    wake?.yield()
  }

  /// Reports a change of the waiting count, and releases the callers of ``waitUntilDrained()`` once nothing waits.
  private func reportCount() async {
    // Callers of waitUntilDrained() are released on the store's own count, never on a remembered one; it is read once
    // nothing is in flight (while an attempt is, an item still waits), so that a drain does not count the store after
    // every item.
    let read: Int? =
      if drainWaiters.isEmpty || !inFlight.isEmpty {
        try? await waitingTotals().count
      } else {
        try? await store.waitingCount()
      }
    guard let count = read else { return }
    if count != lastReportedCount {
      lastReportedCount = count
      emit(.pendingCount(count))
    }
    if count == 0, !drainWaiters.isEmpty {
      for waiter in drainWaiters { waiter.resume() }
      drainWaiters = []
    }
  }
}
