import Foundation
import HTTPTypes

/// The deadlines of one client's calls, kept by one timer of the client's clock instead of a timer per call.
///
/// The timer is the clock's (``CallClock/schedule(after:_:)``): for the system clock a Dispatch timer source on a
/// queue of its own, so a deadline fires on time however busy Swift's shared pool is; a test's clock runs it when the
/// test moves time past it. A timer task per call would cost more than its start: on Linux a cancelled `Task.sleep`
/// keeps its task and its dispatch timer until the time it was asked to sleep for. Here, calls with the same timeout
/// expire in the order they start, so each timeout has a queue in due order (a client has one or a few timeouts,
/// found by a scan), and one timer waits for the earliest head. A call's token is its position in its queue:
/// finishing a call clears its entry in place, without hashing; cleared entries leave when they reach the head, or
/// when they are more than half of the queue. Starting and finishing a call are amortised O(1); the timer is
/// replaced only when a call's deadline comes before the one it waits for.
final class DeadlineTimer: Sendable {
  /// What ``register(timeout:expire:)`` returns, for ``unregister(_:)``.
  struct Token: Sendable {
    fileprivate let queue: Int
    fileprivate let sequence: UInt64
  }

  private struct Entry {
    /// The clock's ``CallClock/uptime`` at which the deadline passes.
    let due: TimeInterval
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
    /// Cancels the clock's timer for the current generation.
    var cancelWake: (@Sendable () -> Void)?
    var generation: UInt64 = 0
    /// When the current timer fires; `nil` when none is set.
    var wakeAt: TimeInterval?
  }

  /// The clock the deadlines are kept on.
  let clock: any CallClock
  private let state = Locked(State())

  /// A timer on `clock`, the system's by default.
  init(clock: any CallClock = SystemCallClock()) {
    self.clock = clock
  }

  /// Calls `expire` once `timeout` seconds have passed, unless ``unregister(_:)`` comes first.
  func register(timeout: TimeInterval, expire: @escaping @Sendable () -> Void) -> Token {
    let now = clock.uptime
    let due = now + min(max(timeout, 0), 1e9)
    let key = timeout.bitPattern
    let (token, wake) = state.withLock { state -> (Token, (generation: UInt64, previous: (@Sendable () -> Void)?)?) in
      var index = 0
      while index < state.queues.count, state.queues[index].timeout != key { index += 1 }
      if index == state.queues.count { state.queues.append(Queue(timeout: key)) }
      let sequence = state.queues[index].nextSequence
      state.queues[index].nextSequence &+= 1
      state.queues[index].entries.append(Entry(due: due, sequence: sequence, expire: expire))
      let token = Token(queue: index, sequence: sequence)
      guard state.wakeAt.map({ due < $0 }) ?? true else { return (token, nil) }
      return (token, (newWake(&state, at: due), state.cancelWake))
    }
    if let wake {
      wake.previous?()
      schedule(generation: wake.generation, after: due - now)
    }
    return token
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

  /// Makes the timer of a new generation the current one, due at `due`; returns its generation.
  private func newWake(_ state: inout State, at due: TimeInterval) -> UInt64 {
    state.generation &+= 1
    state.wakeAt = due
    state.cancelWake = nil
    return state.generation
  }

  /// Sets the clock's timer for `generation`, unless a newer one replaced it meanwhile.
  private func schedule(generation: UInt64, after seconds: TimeInterval) {
    let cancel = clock.schedule(after: seconds) { [weak self] in self?.wake(generation: generation) }
    let current = state.withLock { state in
      guard state.generation == generation else { return false }
      state.cancelWake = cancel
      return true
    }
    if !current { cancel() }
  }

  /// The timer fired: expires what is due, in due order, and sets the timer for the next deadline.
  private func wake(generation: UInt64) {
    let now = clock.uptime
    let (due, next) = state.withLock { state -> ([Entry], (generation: UInt64, at: TimeInterval)?) in
      guard state.generation == generation else { return ([], nil) }
      var due: [Entry] = []
      var next: TimeInterval?
      for index in state.queues.indices {
        state.queues[index].dropClearedHead()
        while state.queues[index].head < state.queues[index].entries.count {
          let head = state.queues[index].head
          let entry = state.queues[index].entries[head]
          if entry.expire != nil {
            // A nanosecond's tolerance: the clock's time and the due time are sums of seconds in floating point.
            guard entry.due <= now + 1e-9 else { break }
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
      guard let next else {
        state.wakeAt = nil
        state.cancelWake = nil
        return (due, nil)
      }
      return (due, (newWake(&state, at: next), next))
    }
    // Deadlines of different timeouts due at one wake expire in due order.
    for entry in due.sorted(by: { $0.due < $1.due }) { entry.expire?() }
    if let next { schedule(generation: next.generation, after: next.at - now) }
  }
}
