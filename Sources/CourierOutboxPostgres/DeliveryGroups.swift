import CourierOutbox
import Foundation
import NIOConcurrencyHelpers

/// A delivery to record, with the claim of its lane's next item.
struct GroupedDelivery: Sendable {
  var id: OutboxItem.ID
  var lane: String
  var response: RecordedResponse
  var date: Date
}

/// What the store's delivery function said of one delivery.
struct DeliveryRow: Sendable {
  /// Whether the delivery was recorded: false when this worker's lease on the lane ended and another worker took it,
  /// or when it needs a transaction.
  var recorded: Bool
  /// Whether dependants bind values from its answer (only said within a transaction).
  var hasDependants: Bool
  /// Whether it was left as it was because dependants bind values from its answer: they are bound in a transaction.
  var needsTransaction: Bool
  /// The lane's next item, marked sending.
  var head: (candidate: Candidate, claim: Claim)?
}

/// Deliveries recorded in groups: one call of the store's function at a time, and the deliveries that finish while it
/// runs are recorded together by the next call, in one round trip. A delivery alone waits for nothing: it is recorded
/// at once. The deliveries of a worker's lanes finish together when its lanes are busy; recorded each in a round trip
/// of its own, their statements, transactions and the client's work for each call cost more than the records
/// themselves.
final class DeliveryGroups: Sendable {
  /// What a delivery waiting for its turn is told: what became of it, or that it records the next group (itself
  /// first).
  enum Turn: Sendable {
    case recorded(Result<DeliveryRow, any Error>)
    case lead([Waiter])
  }

  struct Waiter: Sendable {
    var delivery: GroupedDelivery
    var continuation: CheckedContinuation<Turn, Never>
  }

  /// The most deliveries one call records.
  static let largest = 64

  private let state = NIOLockedValueBox<(busy: Bool, waiting: [Waiter])>((false, []))

  /// Records `delivery` by `call`, at once when no call is under way, and otherwise with the deliveries that wait for
  /// the call under way to end. `call` is given the group, `delivery` first, and returns a row for each, in order.
  func record(
    _ delivery: GroupedDelivery, by call: @escaping @Sendable ([GroupedDelivery]) async throws -> [DeliveryRow]
  ) async throws -> DeliveryRow {
    let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
      state.withLockedValue { state in
        if state.busy {
          state.waiting.append(Waiter(delivery: delivery, continuation: continuation))
        } else {
          state.busy = true
          continuation.resume(returning: .lead([]))
        }
      }
    }
    let others: [Waiter]
    switch turn {
    case .recorded(let row): return try row.get()
    case .lead(let waiters): others = waiters
    }
    let rows: Result<[DeliveryRow], any Error>
    do {
      let recorded = try await call([delivery] + others.map(\.delivery))
      guard recorded.count == others.count + 1 else {
        throw OutboxError(
          .storeFailure,
          "The outbox's delivery function answered \(recorded.count) of a group of \(others.count + 1) deliveries")
      }
      rows = .success(recorded)
    } catch {
      rows = .failure(error)
    }
    for (index, waiter) in others.enumerated() {
      waiter.continuation.resume(returning: .recorded(rows.map { $0[index + 1] }))
    }
    // The deliveries that came while this call ran go together; the first of them makes the call.
    let next: [Waiter] = state.withLockedValue { state in
      guard !state.waiting.isEmpty else {
        state.busy = false
        return []
      }
      let taken = Array(state.waiting.prefix(Self.largest))
      state.waiting.removeFirst(taken.count)
      return taken
    }
    if let leader = next.first { leader.continuation.resume(returning: .lead(Array(next.dropFirst()))) }
    return try rows.get()[0]
  }
}

extension DeliveryGroups {
  /// The deliveries waiting for the call under way to end.
  var waitingCount: Int { state.withLockedValue { $0.waiting.count } }
}
