import Courier
import Foundation
import HTTPTypes

// The lane runner: it sends one lane's items in order, a run at a time, and hands what came of each attempt to the
// records of Outbox+Delivery.swift.
extension Outbox {
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

  /// Items a lane runner claims at once with the record of the deliveries before them, in a store whose claims expire
  /// (a fleet's, held by a lease): it sends them one after another and records their deliveries together, with the
  /// claim of the next ones — one round trip for a run instead of one for each item. A crash before the record sends
  /// them again, in order, with their keys.
  static let itemsPerRun = 8

  /// Items a lane runner claims at once with a record in `store`: ``itemsPerRun`` where claims expire, a whole turn
  /// (``itemsPerTurn``) where they hold until the lane is given back — one transaction for a turn.
  static func runLength(in store: any OutboxStore) -> Int {
    store.claimsHoldFor == nil ? itemsPerTurn : itemsPerRun
  }

  /// Sends `first`, the claim of the lane's first item `firstID` (`nil`: it was not claimed), then the lane's next
  /// items while each may go at once, a run at a time; gives the lane back when one may not (the delivery loop takes it
  /// from there), after a turn while another lane waits for its place, or when the outbox stops.
  func runLane(_ lane: String, from first: Claim?, of firstID: OutboxItem.ID, claimedAt: ContinuousClock.Instant) async
  {
    // When the run's claim was asked for: it holds from then (in a fleet, for a part of the lease).
    var claimedAt = claimedAt
    var claimedWithRecord = false
    var run: [Claim] = []
    if let first {
      run = [first]
    } else {
      inFlight.remove(firstID)
      _ = claimedConstraints.withLock { $0.removeValue(forKey: firstID) }
    }
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
        // At its turn's end, a lane no other lane waits for begins its next turn at once, claimed with this record.
        if goesOn, sent >= Self.itemsPerTurn, await keepsPlace() { sent = 0 }
        let limit = goesOn ? min(Self.runLength(in: store), max(0, Self.itemsPerTurn - sent)) : 0
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
        if let claim = try? await store.claimHeads([candidate.item.id]).first {
          run = [claim]
        } else {
          inFlight.remove(candidate.item.id)
          _ = claimedConstraints.withLock { $0.removeValue(forKey: candidate.item.id) }
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

  /// Whether a lane at its turn's end may keep its place: a place is free, or no other lane's first item may go now or
  /// has something for the delivery loop to do. Not in a shared store, whose lanes other workers take too, nor while a
  /// drain that skips backoffs waits for the delivery loop's next pass.
  func keepsPlace() async -> Bool {
    guard !store.isShared, !ignoreBackoffOnce else { return false }
    if busyLanes.count < configuration.maxConcurrentLanes { return true }
    guard let heads = try? await store.laneHeads(excluding: busyLanes) else { return false }
    let now = configuration.clock.now
    let path = configuration.monitor.currentPath
    return heads.allSatisfy { candidate in
      switch Self.readiness(
        of: candidate, now: now, path: path, keyRetention: configuration.keyRetention, forced: false)
      {
      case .handedOff, .dependencyWaits, .offline, .networkNotAllowed, .notBefore, .backoff: true
      case .deadlinePassed, .keyExpired, .dependencyFailed, .go: false
      }
    }
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
}
