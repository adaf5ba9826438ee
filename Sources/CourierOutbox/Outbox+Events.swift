import Courier
import Foundation
import HTTPTypes

// How the outbox reports: events to their subscribers, the waiting count, and the wake-up of its delivery loop.
extension Outbox {
  func emit(_ event: OutboxEvent) {
    for subscriber in subscribers.values { subscriber.yield(event) }
  }

  func unsubscribe(_ id: UUID) {
    subscribers[id] = nil
  }

  func wakeUp() {
    guard let wake else { return }
    loopBusy = true
    wakePending = true
    wake.yield()
  }

  /// Whether nothing is under way: no pass of the loop, no lane sending, no outcome being recorded, no handler on its
  /// way. What a test of schedules waits for between two steps, so that each step meets a settled outbox.
  package var isQuiet: Bool {
    (!loopBusy || awaitingSystem > 0) && busyLanes.isEmpty && settlingHandoffs.isEmpty && backgroundEvents.isIdle
  }

  /// Reports a change of the waiting count, and releases the callers of ``waitUntilDrained()`` once nothing waits.
  func reportCount() async {
    // Callers of waitUntilDrained() are released on the store's own count, never on a remembered one; it is read once
    // nothing is in flight (while an attempt is, an item still waits), so that a drain does not count the store after
    // every item.
    // A shared store is counted only once this worker has nothing in flight: counting it after every delivery would
    // cost a query each, and other workers change the count anyway.
    if store.isShared, !inFlight.isEmpty { return }
    let read: Int? =
      if store.isShared {
        try? await store.waitingCount()
      } else if drainWaiters.isEmpty || !inFlight.isEmpty {
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
