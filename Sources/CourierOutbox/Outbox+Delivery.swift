import Courier
import Foundation
import HTTPTypes

// How the outbox delivers: the loop that wakes on changes, the lane runners that send one lane's items in order, and
// what each attempt's outcome does to its item.
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
        laneRunners[item.lane] = Task { await self.runLane(from: item) }
      case .later(let seconds):
        earliest = min(earliest ?? seconds, seconds)
      case .waits:
        break
      }
    }
    if owesOthers, leftOver { await store.wakeOthers() }
    return earliest
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
    let path = configuration.monitor.currentPath
    // Its background upload may still be under way: only its outcome decides, whatever the item's age or deadline
    // (the outcome wakes the outbox).
    if candidate.handedOff { return .waits }
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
  static let itemsPerTurn = 32

  /// Whether `candidate` may be sent at once with nothing to do first: the last step of ``consider(_:forced:)``'s
  /// checks, none of which it needs here — what it cannot decide alone goes back to the delivery loop.
  static func mayGoAtOnce(_ candidate: Candidate, now: Date, path: NetworkPath, keyRetention: TimeInterval) -> Bool {
    let item = candidate.item
    let constraints = candidate.constraints
    return (candidate.dependency == nil || candidate.dependency == .delivered) && !candidate.handedOff
      && constraints.giveUpAfter.map { now <= $0 } ?? true
      && now.timeIntervalSince(item.enqueuedAt) <= keyRetention
      && path.isOnline
      && (!path.isExpensive || constraints.allowsExpensiveNetwork)
      && (!path.isConstrained || constraints.allowsConstrainedNetwork)
      && constraints.notBefore.map { $0 <= now } ?? true
      && item.nextAttemptAt <= now
  }

  /// What an attempt left for its lane.
  enum AttemptOutcome {
    /// The lane's next items, already marked sending with the deliveries' record.
    case claimed([Claim])
    /// The lane may go on: look at its next item.
    case goOn
    /// The lane waits (a backoff, a pause, a failure to record).
    case stop
  }

  /// What sending a claimed item once came to.
  enum Sent {
    /// Delivered: its answer is recorded with the other deliveries of its run.
    case delivered(RecordedResponse)
    /// Not delivered: recorded after the deliveries of its run that came before it.
    case failed(DeliveryDecision, RecordedResponse?)
    /// Nothing to record (handed to a background upload, or given back): what its lane does next.
    case concluded(AttemptOutcome)
  }

  /// A delivered item whose answer is to be recorded.
  typealias DeliveredItem = (item: OutboxItem, response: RecordedResponse, bodyFile: String?)

  /// Items a lane runner claims at once with the record of the deliveries before them: it sends them one after another
  /// and records their deliveries together, with the claim of the next ones — one store transaction (in a fleet, one
  /// round trip) for a run instead of one for each item. A crash before the record sends them again, in order, with
  /// their keys.
  static let itemsPerRun = 8

  /// Sends `first`, then the lane's next items while each may go at once, a run at a time; gives the lane back when one
  /// may not (the delivery loop takes it from there), after a turn, or when the outbox stops.
  func runLane(from first: OutboxItem) async {
    let lane = first.lane
    // When the run's claim was asked for: it holds from then (in a fleet, for a part of the lease).
    var claimedAt = ContinuousClock.now
    var claimedWithRecord = false
    var run: [Claim] = []
    if let claim = try? await store.markSending(first.id) { run = [claim] } else { inFlight.remove(first.id) }
    var sent = 0
    // A lane given back only for the other lanes' turn: this worker looks at the lanes' first items at once.
    var turnEnded = false
    while !run.isEmpty {
      var delivered: [DeliveredItem] = []
      var failure: (item: OutboxItem, decision: DeliveryDecision, response: RecordedResponse?)?
      var stopped = false
      var next = 0
      sending: while next < run.count {
        // A run's items go only while the lane's claim surely holds (in a fleet, a part of the lease the record
        // renews: the first item of a run claimed with a record too, as what follows a record may take long), and
        // its later ones while the outbox may send.
        if (next > 0 || claimedWithRecord) && store.claimsHoldFor.map({ claimedAt.duration(to: .now) > $0 }) == true
          || next > 0 && !(isRunning && mayClaim)
        {
          break
        }
        let claim = run[next]
        next += 1
        sent += 1
        switch await attempt(claim) {
        case .delivered(let response):
          delivered.append((claim.item, response, claim.request.bodyFile))
        case .failed(let decision, let response):
          failure = (claim.item, decision, response)
          break sending
        case .concluded(let outcome):
          if case .stop = outcome { stopped = true }
          inFlight.remove(claim.item.id)
          break sending
        }
      }
      // The items of the run not sent are given back, uncounted, as if never claimed.
      let unsent = Array(run[next...])
      if !unsent.isEmpty { await giveBack(unsent) }
      for claim in unsent { inFlight.remove(claim.item.id) }
      run = []
      // What came of the attempts is recorded in tasks of their own: the app's background time may run out — cutting
      // this runner, whose cancelled task the store refuses — before or while the records are written, and the server
      // acted on the requests all the same. A runner cut before it records claims nothing more.
      let cut = Task.isCancelled
      var outcome = AttemptOutcome.goOn
      if !delivered.isEmpty {
        let goesOn = failure == nil && !stopped && unsent.isEmpty && isRunning && mayClaim && !cut
        let limit = goesOn ? min(Self.itemsPerRun, max(0, Self.itemsPerTurn - sent)) : 0
        claimedAt = .now
        outcome = await Task { [delivered] in await settleDeliveries(delivered, claimingUpTo: limit) }.value
        // In flight until recorded: a fleet's worker reads the store's count only once nothing is.
        for (item, _, _) in delivered { inFlight.remove(item.id) }
      }
      if let (item, decision, response) = failure {
        // Recorded after the deliveries before it. A dead letter lets the lane go on; a retry or a pause stops it.
        await Task { await settle(item, decision: decision, response: response) }.value
        inFlight.remove(item.id)
        switch decision {
        case .delivered, .deadLetter: break
        case .retry, .pause: stopped = true
        }
      }
      let mayContinue = !stopped && isRunning && mayClaim && sent < Self.itemsPerTurn
      switch outcome {
      case .claimed(let claims):
        for claim in claims { inFlight.insert(claim.item.id) }
        run = claims
        claimedWithRecord = true
      case .goOn where mayContinue:
        guard let candidate = try? await store.laneHead(lane), case .go = await consider(candidate, forced: false)
        else { break }
        claimedConstraints.withLock { $0[candidate.item.id] = candidate.constraints }
        inFlight.insert(candidate.item.id)
        claimedAt = .now
        claimedWithRecord = false
        if let claim = try? await store.markSending(candidate.item.id) {
          run = [claim]
        } else {
          inFlight.remove(candidate.item.id)
        }
      case .goOn:
        turnEnded = !stopped && sent >= Self.itemsPerTurn && isRunning && mayClaim
      case .stop:
        break
      }
    }
    await store.releaseLane(lane, wakingOthers: !turnEnded)
    if turnEnded { lanesAtTurnsEnd.insert(lane) }
    busyLanes.remove(lane)
    laneRunners[lane] = nil
    wakeUp()
  }

  /// Sends the claimed item once; its run records what came of it.
  func attempt(_ claim: Claim) async -> Sent {
    let (item, request) = claim
    let constraints = claimedConstraints.withLock { $0.removeValue(forKey: item.id) } ?? OutboxConstraints.none
    // The app may have lost its time to send in while the item was claimed (a claim is a write, and a delivery's
    // record claims the lane's next items): the claim is given back, uncounted, and nothing is sent.
    guard mayClaim else {
      await giveBack(item, because: "the app had no time to send in")
      return .concluded(.stop)
    }
    emit(.sending(item.id, attempt: item.attempts))
    let decision: DeliveryDecision
    var response: RecordedResponse?
    var handingOff = false
    do {
      var endpoint = try endpoint(for: request)
      var sender = client
      if let handoffClient, request.bodyFile != nil {
        // An upload the system carries on: its outcome is recorded when it comes, and the lane waits for it.
        endpoint = endpoint.header(
          HandoffTransport.header, BackgroundTaskTag.description(for: item.id, attempt: item.attempts))
        // The system may move the upload to another network: it keeps the item's constraints there too.
        let network = BackgroundNetwork(
          allowsExpensive: constraints.allowsExpensiveNetwork, allowsConstrained: constraints.allowsConstrainedNetwork)
        endpoint = endpoint.header(HandoffTransport.network, network.headerValue)
        sender = handoffClient
        handingOff = true
      }
      let answer = try await sender.send(endpoint)
      if answer.response.headerFields[HandoffTransport.header] == "handed-off" { return .concluded(.stop) }
      response = RecordedResponse(status: answer.status, headerFields: answer.response.headerFields, body: answer.value)
      decision = DeliveryDecision.decide(
        status: answer.status, headerFields: answer.response.headerFields, now: configuration.clock.now)
    } catch {
      // Something after the upload started failed: the upload goes on, and its outcome decides.
      // (Read in a task of its own: the store refuses work from a cut runner's cancelled task.)
      if handingOff,
        await Task(operation: { [store] in
          (try? await store.handedOffItems())?.contains(where: { $0.item.id == item.id }) == true
        }).value
      {
        return .concluded(.stop)
      }
      if Task.isCancelled {
        // Only `backgroundTimeExpired()` cancels a lane runner: the app's background time ran out and the outbox cut
        // the attempt. The item is sent again, with its key, once the app may send, and the cut does not count
        // towards `maxAttempts`.
        await giveBack(item, because: "the app's background time ran out")
        return .concluded(.stop)
      }
      decision = DeliveryDecision.decide(failure: error)
      if let failure = error as? CourierError, let head = failure.response {
        response = RecordedResponse(status: head.status, headerFields: head.headerFields, body: failure.body ?? Data())
      }
    }
    if case .delivered = decision, let response { return .delivered(response) }
    return .failed(decision, response)
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
