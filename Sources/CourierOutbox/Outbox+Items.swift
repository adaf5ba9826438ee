import Courier
import Foundation
import HTTPTypes

// What the app reads and changes of the items — events, counts, the items themselves, lanes, results — and the
// totals of what waits.
extension Outbox {
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
    await sweepBodies()
  }

  /// Replaces a pending item's request with `endpoint`'s (same method and target); it gets a new key.
  public func edit<Value>(_ id: OutboxItem.ID, to endpoint: Endpoint<Value>) async throws {
    let request = try await stored(endpoint)
    let edited = try await committing([request]) {
      try await store.edit(id, request: request, at: configuration.clock.now)
    }
    guard edited else {
      forget([request])
      throw OutboxError(.noSuchItem, "No pending outbox item \(id) to edit")
    }
    // The body it replaced may have been a file.
    await sweepBodies()
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
  func handleResult(of id: OutboxItem.ID, kind: String) async {
    guard let handler = resultHandlers[kind], handling.insert(id).inserted else { return }
    defer { handling.remove(id) }
    guard let result = try? await store.result(for: id) else { return }
    await handler(result)
    try? await store.markHandled(id)
  }

  /// Adds to the known totals of what waits; when they are not known, makes sure a read of them that is under way
  /// is not kept.
  func adjustWaiting(count: Int, bytes: Int) {
    if waiting != nil {
      waiting!.count += count
      waiting!.bytes += bytes
    } else {
      waitingGeneration &+= 1
    }
  }

  /// The items and body bytes waiting, read from the store when not known.
  func waitingTotals() async throws -> (count: Int, bytes: Int) {
    if let waiting { return waiting }
    // Other workers change a shared store: only the store knows.
    if store.isShared { return (count: try await store.waitingCount(), bytes: try await store.waitingBytes()) }
    let generation = waitingGeneration
    let totals = (count: try await store.waitingCount(), bytes: try await store.waitingBytes())
    // Another task of this actor may have changed the items while the store was read: keep nothing stale.
    if generation == waitingGeneration { waiting = totals }
    return totals
  }

  func checkRoom(for bytes: Int) async throws {
    // A shared store keeps no totals in memory: only its bytes are read.
    let held = store.isShared ? try await store.waitingBytes() : try await waitingTotals().bytes
    guard held + bytes <= configuration.maxQueuedBytes else {
      throw OutboxError(
        .limitReached,
        "The outbox holds \(held) bytes waiting; \(bytes) more would pass its limit of \(configuration.maxQueuedBytes)")
    }
  }
}
