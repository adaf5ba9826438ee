import Foundation

/// The deadlines of one client's calls, kept by one timer task instead of a timer task per call.
///
/// A timer task per call costs more than its start: on Linux a cancelled `Task.sleep` keeps its task and its
/// dispatch timer until the time it was asked to sleep for, so a client sending thousands of requests a second with
/// a 60-second timeout would hold a minute's worth of sleeping timers. Here, calls with the same timeout expire in
/// the order they start, so each timeout has a queue in due order (a client has one or a few timeouts, found by a
/// scan), and one task sleeps until the earliest head. A call's token is its position in its queue: finishing a call
/// clears its entry in place, without hashing; cleared entries leave when they reach the head, or when they are more
/// than half of the queue. Starting and finishing a call are amortised O(1); the timer task is replaced only when a
/// call's deadline comes before the one it sleeps for.
final class DeadlineTimer: Sendable {
  /// What ``register(timeout:expire:)`` returns, for ``unregister(_:)``.
  struct Token: Sendable {
    fileprivate let queue: Int
    fileprivate let sequence: UInt64
  }

  private struct Entry {
    let due: ContinuousClock.Instant
    let sequence: UInt64
    /// `nil` once the call finished or its deadline passed.
    var expire: (@Sendable () -> Void)?
  }

  private struct Queue {
    let timeout: UInt64
    var entries: [Entry] = []
    var head = 0
    /// Cleared entries at or after `head`.
    var cleared = 0
    var nextSequence: UInt64 = 0

    /// The index of the entry with `sequence` at or after `head`, if it is still held. Entries are in sequence
    /// order; until a compaction, an entry's index is its sequence minus the first one's.
    func index(of sequence: UInt64) -> Int? {
      guard head < entries.count, sequence >= entries[head].sequence else { return nil }
      let guess = Int(truncatingIfNeeded: sequence &- entries[0].sequence)
      if guess < entries.count, entries[guess].sequence == sequence { return guess }
      var low = head
      var high = entries.count
      while low < high {
        let middle = (low + high) / 2
        if entries[middle].sequence < sequence { low = middle + 1 } else { high = middle }
      }
      return low < entries.count && entries[low].sequence == sequence ? low : nil
    }

    /// Drops cleared entries from the head, and the storage they held when they are many.
    mutating func dropClearedHead() {
      while head < entries.count, entries[head].expire == nil {
        head += 1
        cleared -= 1
      }
      if head == entries.count {
        // Kept, empty, for the next call with this timeout: no storage to allocate per call.
        entries.removeAll(keepingCapacity: true)
        head = 0
      } else if head > 64, head * 2 > entries.count {
        entries.removeFirst(head)
        head = 0
      }
    }
  }

  private struct State {
    var queues: [Queue] = []
    var sleeper: Task<Void, Never>?
    var generation: UInt64 = 0
    var wakeAt: ContinuousClock.Instant?
  }

  private let state = Locked(State())

  /// Calls `expire` once `timeout` seconds have passed, unless ``unregister(_:)`` comes first.
  func register(timeout: TimeInterval, expire: @escaping @Sendable () -> Void) -> Token {
    let due = ContinuousClock.now.advanced(by: .nanoseconds(Int64(min(max(timeout, 0), 1e9) * 1e9)))
    let key = timeout.bitPattern
    return state.withLock { state in
      var index = 0
      while index < state.queues.count, state.queues[index].timeout != key { index += 1 }
      if index == state.queues.count { state.queues.append(Queue(timeout: key)) }
      let sequence = state.queues[index].nextSequence
      state.queues[index].nextSequence &+= 1
      state.queues[index].entries.append(Entry(due: due, sequence: sequence, expire: expire))
      if state.sleeper == nil || state.wakeAt.map({ due < $0 }) == true {
        state.sleeper?.cancel()
        state.generation &+= 1
        state.wakeAt = due
        let generation = state.generation
        state.sleeper = Task { [weak self] in await self?.sleep(generation: generation) }
      }
      return Token(queue: index, sequence: sequence)
    }
  }

  /// Forgets a call that finished; `false` when its deadline had already passed (and its `expire` ran or is about
  /// to), `true` when it finished in time.
  @discardableResult
  func unregister(_ token: Token) -> Bool {
    state.withLock { state in
      guard let index = state.queues[token.queue].index(of: token.sequence),
        state.queues[token.queue].entries[index].expire != nil
      else { return false }
      state.queues[token.queue].entries[index].expire = nil
      state.queues[token.queue].cleared += 1
      state.queues[token.queue].dropClearedHead()
      let queue = state.queues[token.queue]
      if queue.cleared * 2 > queue.entries.count - queue.head {
        state.queues[token.queue].entries = queue.entries[queue.head...].filter { $0.expire != nil }
        state.queues[token.queue].head = 0
        state.queues[token.queue].cleared = 0
      }
      return true
    }
  }

  /// Entries still held in the queues, cleared or not (for tests: finished calls must not pile up).
  var heldEntries: Int {
    state.withLock { state in state.queues.reduce(0) { $0 + $1.entries.count - $1.head } }
  }

  /// The timer task: expires what is due, then sleeps until the next deadline; ends when none is left or when a
  /// newer timer task replaced it.
  private func sleep(generation: UInt64) async {
    while true {
      let (due, next) = state.withLock { state -> ([Entry], ContinuousClock.Instant?) in
        guard state.generation == generation else { return ([], nil) }
        let now = ContinuousClock.now
        var due: [Entry] = []
        var next: ContinuousClock.Instant?
        for index in state.queues.indices {
          state.queues[index].dropClearedHead()
          while state.queues[index].head < state.queues[index].entries.count {
            let head = state.queues[index].head
            let entry = state.queues[index].entries[head]
            if entry.expire != nil {
              guard entry.due <= now else { break }
              due.append(entry)
              state.queues[index].entries[head].expire = nil
            } else {
              state.queues[index].cleared -= 1
            }
            state.queues[index].head += 1
          }
          state.queues[index].dropClearedHead()
          let queue = state.queues[index]
          guard queue.head < queue.entries.count else { continue }
          let head = queue.entries[queue.head].due
          next = next.map { min($0, head) } ?? head
        }
        state.wakeAt = next
        if next == nil { state.sleeper = nil }
        return (due, next)
      }
      // Deadlines of different timeouts due at one wake expire in due order.
      for entry in due.sorted(by: { $0.due < $1.due }) { entry.expire?() }
      guard let next else { return }
      do {
        try await Task.sleep(until: next, clock: .continuous)
      } catch {
        return
      }
    }
  }
}
