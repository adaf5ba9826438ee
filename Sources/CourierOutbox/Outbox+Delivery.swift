import Courier
import Foundation
import HTTPTypes

// How the outbox delivers: the loop that wakes on changes, which lanes may go (the lane runners that send them are
// in Outbox+LaneRunner.swift), and what each attempt's outcome does to its item.
extension Outbox {
  func run(wakes: AsyncStream<Void>) async {
    loopBusy = true
    waiting = nil
    // Files of items delivered or cancelled before a crash, or written for an enqueue that never committed.
    await sweepBodies()
    await reconcileHandoffs()
    await quarantineUnknownKinds()
    // One watcher for the whole run: the network coming (or going) wakes the outbox.
    let watcher = Task { [weak self, monitor = configuration.monitor] in
      for await _ in monitor.onlineChanges() { await self?.wakeUp() }
    }
    // Other workers of a shared store: their enqueues and the lanes they give back wake this one too.
    let others = store.watch { [weak self] in Task { await self?.wakeUp() } }
    defer {
      watcher.cancel()
      others?.cancel()
    }
    var wakeIterator = wakes.makeAsyncIterator()
    while !Task.isCancelled {
      loopBusy = true
      wakePending = false
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
      // Woken during the pass, the loop goes on at once.
      loopBusy = wakePending
      let woken = await wakeIterator.next() != nil
      timer?.cancel()
      guard woken else { break }
    }
  }

  /// Quarantines the waiting items of kinds and versions not in ``Configuration/kinds``: never sent, never dropped.
  ///
  /// Not in a store other processes write too: while a new version of a service rolls out, a worker of the older one
  /// would quarantine every item of the newer one's new kinds. There, every worker sends every item as it is stored
  /// (an HTTP request), and results go to the workers that registered handlers for their kinds.
  func quarantineUnknownKinds() async {
    guard let kinds = configuration.kinds, !store.isShared,
      let waiting = try? await store.items(in: [.pending, .sending])
    else { return }
    let known = Set(kinds.map { KindVersion(kind: $0.name, version: $0.version) })
    for item in waiting where !known.contains(KindVersion(kind: item.kind, version: item.kindVersion)) {
      let reason = "this app does not register the kind \"\(item.kind)\" at version \(item.kindVersion)"
      let quarantined = try? await store.transition(
        item.id, from: [.pending, .sending], to: .quarantined, reason: reason, newKey: nil, at: configuration.clock.now)
      if quarantined == true { emit(.quarantined(item.id, reason: reason)) }
    }
  }

  /// Starts a lane runner for every lane head that may go now; returns in how many seconds the earliest waiting one
  /// may go, if any.
  func sendWhatIsReady() async -> TimeInterval? {
    // Lanes given back at their turn's end woke no other worker: this pass wakes them if it leaves a lane it could not
    // take (or cannot look).
    let turnsEnded = lanesAtTurnsEnd
    lanesAtTurnsEnd = []
    let owesOthers = !turnsEnded.isEmpty
    // Offline, nothing can go: the network coming back wakes the outbox (enqueues said they wait for it). In the
    // background without time to send in, nothing starts: the app coming to the foreground wakes the outbox.
    guard mayClaim, configuration.monitor.currentPath.isOnline else {
      if owesOthers { await store.wakeOthers() }
      return nil
    }
    let candidates: [Candidate]
    do {
      // The lanes whose turn just ended go after the others, which get their turn.
      let heads = try await store.laneHeads(excluding: busyLanes)
      candidates =
        turnsEnded.isEmpty
        ? heads
        : heads.filter { !turnsEnded.contains($0.item.lane) } + heads.filter { turnsEnded.contains($0.item.lane) }
    } catch {
      if owesOthers { await store.wakeOthers() }
      return 1
    }
    let forced = ignoreBackoffOnce
    ignoreBackoffOnce = false
    var earliest: TimeInterval?
    var leftOver = false
    var going: [OutboxItem] = []
    for candidate in candidates {
      // The app may lose its time to send in while this pass waits on the store: nothing starts from then on.
      guard busyLanes.count < configuration.maxConcurrentLanes, mayClaim else {
        leftOver = true
        break
      }
      // A runner may have taken the lane while this pass was suspended.
      guard !busyLanes.contains(candidate.item.lane) else { continue }
      switch await consider(candidate, forced: forced) {
      case .go:
        let item = candidate.item
        claimedConstraints.withLock { $0[item.id] = candidate.constraints }
        busyLanes.insert(item.lane)
        inFlight.insert(item.id)
        going.append(item)
      case .later(let seconds):
        earliest = min(earliest ?? seconds, seconds)
      case .waits:
        break
      }
    }
    startRunners(for: going)
    if owesOthers, leftOver { await store.wakeOthers() }
    return earliest
  }

  /// Claims the lanes' first items `going` together (in a fleet, one round trip) and starts a runner for each lane.
  ///
  /// The runners exist before the claim is asked for, and each waits for it: what waits for the lanes sending — the app
  /// leaving the foreground, its background time expiring — waits for the claim too, or cuts it. Nothing is claimed
  /// once the app has no time to send in, or the outbox stopped: the pass that chose the lanes may have waited on the
  /// app (a result handler, a reconciliation) while it left, and found no runner to wait for.
  func startRunners(for going: [OutboxItem]) {
    guard !going.isEmpty else { return }
    guard mayClaim, isRunning else {
      for item in going {
        busyLanes.remove(item.lane)
        inFlight.remove(item.id)
        _ = claimedConstraints.withLock { $0.removeValue(forKey: item.id) }
      }
      return
    }
    let store = self.store
    let ids = going.map(\.id)
    let claimedAt = ContinuousClock.now
    let claiming = Task { (try? await store.claimHeads(ids)) ?? [] }
    for item in going {
      laneRunners[item.lane] = Task {
        let claims = await withTaskCancellationHandler {
          await claiming.value
        } onCancel: {
          claiming.cancel()
        }
        await self.runLane(item.lane, from: claims.first { $0.item.id == item.id }, of: item.id, claimedAt: claimedAt)
      }
    }
  }

  /// What to do with a lane's first item now.
  enum Verdict {
    /// Send it.
    case go
    /// Look again in so many seconds (0: at once, something changed).
    case later(TimeInterval)
    /// It waits for something that wakes the outbox (the network, an earlier item, the app).
    case waits
  }

  /// Decides whether `candidate` may be sent now; an item past its deadline or its key's retention is dealt with here.
  func consider(_ candidate: Candidate, forced: Bool) async -> Verdict {
    let item = candidate.item
    let now = configuration.clock.now
    switch Self.readiness(
      of: candidate, now: now, path: configuration.monitor.currentPath, keyRetention: configuration.keyRetention,
      forced: forced)
    {
    case .handedOff, .dependencyWaits:
      return .waits
    case .deadlinePassed(let giveUp):
      await deadLetter(item, OutboxError(.limitReached, "The item's deadline \(giveUp) passed before it was delivered"))
      return .later(0)
    case .keyExpired:
      await reconcile(item)
      return .later(0)
    case .dependencyFailed(let dependency):
      // Its dependency failed after it was enqueued; cancel it as the failure would have.
      try? await cancelDependants(of: dependency, because: "the item \(dependency) it waits for failed")
      return .later(0)
    case .offline:
      emit(.waiting(item.id, .offline))
      return .waits
    case .networkNotAllowed:
      emit(.waiting(item.id, .constraint))
      return .waits
    case .notBefore(let date):
      emit(.waiting(item.id, .constraint))
      return .later(date.timeIntervalSince(now))
    case .backoff(let date):
      return .later(date.timeIntervalSince(now))
    case .go:
      return .go
    }
  }

  /// Where a lane's first item stands now: what ``consider(_:forced:)`` acts on, without acting.
  enum Readiness: Equatable {
    /// Its background upload may still be under way: only its outcome decides, whatever the item's age or deadline
    /// (the outcome wakes the outbox).
    case handedOff
    /// Its deadline passed: it becomes a dead letter.
    case deadlinePassed(Date)
    /// It waited longer than the server keeps idempotency keys: it is reconciled.
    case keyExpired
    /// The item it depends on failed, and it is cancelled with it.
    case dependencyFailed(OutboxItem.ID)
    /// The item it depends on is not delivered yet.
    case dependencyWaits
    /// Nothing can be sent.
    case offline
    /// The network is one it may not use.
    case networkNotAllowed
    /// It may not go before this date.
    case notBefore(Date)
    /// It waits out a backoff until this date.
    case backoff(Date)
    /// It may be sent now.
    case go
  }

  /// Where `candidate` stands at `now` on `path`; `forced`: a drain skips a backoff, but never a wait the server asked
  /// for.
  static func readiness(
    of candidate: Candidate, now: Date, path: NetworkPath, keyRetention: TimeInterval, forced: Bool
  ) -> Readiness {
    let item = candidate.item
    let constraints = candidate.constraints
    if candidate.handedOff { return .handedOff }
    if let giveUp = constraints.giveUpAfter, now > giveUp { return .deadlinePassed(giveUp) }
    if now.timeIntervalSince(item.enqueuedAt) > keyRetention { return .keyExpired }
    switch candidate.dependency {
    case .delivered?, nil: break
    case .deadLetter?, .cancelled?, .quarantined?:
      if constraints.ifDependencyFails == .cancel, let after = item.after { return .dependencyFailed(after) }
    case .pending?, .sending?:
      return .dependencyWaits
    }
    guard path.isOnline else { return .offline }
    if (path.isExpensive && !constraints.allowsExpensiveNetwork)
      || (path.isConstrained && !constraints.allowsConstrainedNetwork)
    {
      return .networkNotAllowed
    }
    if let notBefore = constraints.notBefore, notBefore > now { return .notBefore(notBefore) }
    if item.nextAttemptAt > now, !forced || (candidate.heldUntil.map { $0 > now } ?? false) {
      return .backoff(item.nextAttemptAt)
    }
    return .go
  }

  /// Items a lane runner sends in a row before it gives its place back, so that lanes beyond
  /// ``Configuration/maxConcurrentLanes`` get their turn.
  static let itemsPerTurn = 32

  /// Whether `candidate` may be sent at once with nothing to do first: claimed with a record, in the store's
  /// transaction, where what it cannot decide alone goes back to the delivery loop (an item whose dependency failed
  /// but is sent all the same among them).
  static func mayGoAtOnce(_ candidate: Candidate, now: Date, path: NetworkPath, keyRetention: TimeInterval) -> Bool {
    (candidate.dependency == nil || candidate.dependency == .delivered)
      && readiness(of: candidate, now: now, path: path, keyRetention: keyRetention, forced: false) == .go
  }

  /// Gives `item`'s claim back uncounted (``AttemptRecord/cut(reason:)``): it waits again, ready at once. Recorded in a
  /// task of its own, as the store refuses work from a cancelled task (a cut lane runner's).
  func giveBack(_ item: OutboxItem, because reason: String) async {
    let now = configuration.clock.now
    let recorded = await Task {
      (try? await record(.cut(reason: reason), for: item, at: now, fence: nil)) != nil
    }.value
    if recorded { emit(.waiting(item.id, .backoff(until: now))) }
  }

  /// Gives back the claims of a run's items that were not sent, uncounted, as if never claimed; if that fails, they
  /// wait, sending, to be sent again with their keys.
  func giveBack(_ unsent: [Claim]) async {
    let now = configuration.clock.now
    await Task {
      for (item, _) in unsent {
        _ = claimedConstraints.withLock { $0.removeValue(forKey: item.id) }
        _ = try? await record(.cut(reason: "claimed with a run that stopped before it"), for: item, at: now, fence: nil)
      }
    }.value
  }

  /// Records a delivery, with `fence` only while that attempt is the item's latest and it is sending.
  func settleDelivery(_ item: OutboxItem, response: RecordedResponse, bodyFile: String?, fence: Int) async {
    let now = configuration.clock.now
    do {
      let recorded = try await record(.delivered(response), for: item, at: now, fence: fence)
      await delivered([(item, response, bodyFile)], recorded: recorded)
    } catch {
      // The answer could not be recorded: the item stays "sending" and is sent again, with its key, next time.
      await reportCount()
    }
  }

  /// Records the deliveries of a run of one lane's items — and, in the same transaction, claims the lane's next items,
  /// up to `limit`, while each may go at once.
  func settleDeliveries(_ items: [DeliveredItem], claimingUpTo limit: Int) async -> AttemptOutcome {
    guard let lane = items.first?.item.lane else { return .goOn }
    let now = configuration.clock.now
    let path = configuration.monitor.currentPath
    let retention = configuration.keyRetention
    let recorded: RecordResult
    let next: [Claim]
    do {
      (recorded, next) = try await store.recordDeliveries(
        items.map { (id: $0.item.id, response: $0.response) }, lane: lane, at: now, claimingUpTo: limit,
        claimingNextIf: { [claimedConstraints] candidate in
          guard Self.mayGoAtOnce(candidate, now: now, path: path, keyRetention: retention) else { return false }
          claimedConstraints.withLock { $0[candidate.item.id] = candidate.constraints }
          return true
        })
    } catch {
      // The answers could not be recorded: the items stay "sending" and are sent again, with their keys, next time.
      // A store that records them one at a time may have recorded some before it failed: those are delivered.
      var recordedBefore: [DeliveredItem] = []
      if items.count > 1 {
        for delivered in items where (try? await store.result(for: delivered.item.id))?.item.state == .delivered {
          recordedBefore.append(delivered)
        }
      }
      if recordedBefore.isEmpty {
        await reportCount()
      } else {
        // What their answers bound is not known here: the totals are read again.
        await self.delivered(recordedBefore, recorded: RecordResult(changedDependants: true))
      }
      return .stop
    }
    await delivered(items, recorded: recorded)
    return next.isEmpty ? .goOn : .claimed(next)
  }

  /// What follows recorded deliveries: the events, the results' handlers, and the dependants that became dead letters.
  func delivered(_ items: [DeliveredItem], recorded: RecordResult) async {
    for (item, response, bodyFile) in items {
      // A delivered item is never sent again: its body file goes (a crash before this leaves it to a sweep).
      if let bodyFile { bodyFiles?.remove(bodyFile) }
      // One item fewer waits; dependants whose values were bound changed their bytes, and failed ones stopped
      // waiting: those are read again.
      if !recorded.changedDependants { adjustWaiting(count: -1, bytes: -item.bodyLength) }
      emit(.delivered(item.id, status: response.status))
      await handleResult(of: item.id, kind: item.kind)
    }
    if recorded.changedDependants { waiting = nil }
    for failure in recorded.failures {
      emit(.deadLettered(failure.id, failure.error))
      try? await cancelDependants(of: failure.id, because: "the item \(failure.id) it waits for became a dead letter")
      if let failed = try? await store.result(for: failure.id) {
        await handleResult(of: failure.id, kind: failed.item.kind)
      }
    }
    await reportCount()
  }

  /// Records `record` for `item`; with `fence`, only while that attempt is the item's latest and it is sending.
  @discardableResult
  func record(_ record: AttemptRecord, for item: OutboxItem, at now: Date, fence: Int?) async throws -> RecordResult {
    try await store.record(record, for: item.id, lane: item.lane, at: now, ifAttempt: fence)
  }

  /// Records the outcome `decision` of an attempt of `item`; with `fence`, only while that attempt is the item's
  /// latest and it is sending.
  func settle(_ item: OutboxItem, decision: DeliveryDecision, response: RecordedResponse?, fence: Int? = nil) async {
    let now = configuration.clock.now
    do {
      switch decision {
      case .delivered:
        // A success without an answer to record cannot happen; settleDeliveries records those that have one.
        break
      case .retry(let reason, let retryAfter):
        guard item.attempts < configuration.maxAttempts else {
          await deadLetter(
            item,
            OutboxError(
              .limitReached, "The item was sent \(item.attempts) times without success; last: \(reason)",
              status: response?.status), response: response, fence: fence)
          return
        }
        let delay = DeliveryDecision.backoff(
          afterAttempt: item.attempts, base: configuration.baseDelay, maximum: configuration.maxDelay,
          retryAfter: retryAfter, random: configuration.random())
        let until = now.addingTimeInterval(delay)
        let held = retryAfter.map { now.addingTimeInterval($0) }
        try await record(.retry(at: until, heldUntil: held, reason: reason), for: item, at: now, fence: fence)
        emit(.waiting(item.id, .backoff(until: until)))
      case .pause(let reason):
        try await record(.pauseLane(reason: reason), for: item, at: now, fence: fence)
        emit(.waiting(item.id, .paused(reason: reason)))
      case .deadLetter(let reason):
        await deadLetter(
          item, OutboxError(.rejected, reason, status: response?.status), response: response, fence: fence)
      }
    } catch {
      // The answer could not be recorded: the item stays "sending" and is sent again, with its key, next time.
    }
    await reportCount()
  }

  func deadLetter(_ item: OutboxItem, _ error: OutboxError, response: RecordedResponse? = nil, fence: Int? = nil) async
  {
    waiting = nil
    let now = configuration.clock.now
    do {
      try await record(.deadLetter(reason: error.message, response: response), for: item, at: now, fence: fence)
      emit(.deadLettered(item.id, error))
      try await cancelDependants(of: item.id, because: "the item \(item.id) it waits for became a dead letter")
      await handleResult(of: item.id, kind: item.kind)
    } catch {}
  }

  func reconcile(_ item: OutboxItem) async {
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

  func cancelDependants(of id: OutboxItem.ID, because reason: String) async throws {
    waiting = nil
    let cancelled = try await store.cancelDependants(of: id, reason: reason, at: configuration.clock.now)
    for dependant in cancelled { emit(.cancelled(dependant, reason: reason)) }
    await sweepBodies()
  }
}
