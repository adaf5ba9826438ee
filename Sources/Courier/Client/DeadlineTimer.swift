import Foundation

/// The deadlines of one client's calls, kept by one timer task instead of a timer task per call.
///
/// A timer task per call costs more than its start: on Linux a cancelled `Task.sleep` keeps its task and its
/// dispatch timer until the time it was asked to sleep for, so a client sending thousands of requests a second with
/// a 60-second timeout would hold a minute's worth of sleeping timers. Here, calls with the same timeout expire in
/// the order they start, so each timeout has a queue in due order, and one task sleeps until the earliest head. A
/// call that finishes only drops its id; its entry leaves the queue when it reaches the head, or when dead entries
/// are more than half of the queue. Starting and finishing a call are amortised O(1); the timer task is replaced
/// only when a call's deadline comes before the one it sleeps for.
final class DeadlineTimer: Sendable {
  /// What ``register(timeout:expire:)`` returns, for ``unregister(_:)``.
  struct Token: Sendable {
    fileprivate let queue: UInt64
    fileprivate let id: UInt64
  }

  private struct Entry {
    let due: ContinuousClock.Instant
    let id: UInt64
    let expire: @Sendable () -> Void
  }

  private struct Queue {
    var entries: [Entry] = []
    var head = 0
    var dead = 0
  }

  private struct State {
    var queues: [UInt64: Queue] = [:]
    var live: Set<UInt64> = []
    var nextID: UInt64 = 0
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
      let id = state.nextID
      state.nextID &+= 1
      state.live.insert(id)
      state.queues[key, default: Queue()].entries.append(Entry(due: due, id: id, expire: expire))
      if state.sleeper == nil || state.wakeAt.map({ due < $0 }) == true {
        state.sleeper?.cancel()
        state.generation &+= 1
        state.wakeAt = due
        let generation = state.generation
        state.sleeper = Task { [weak self] in await self?.sleep(generation: generation) }
      }
      return Token(queue: key, id: id)
    }
  }

  /// Forgets a call that finished before its deadline.
  func unregister(_ token: Token) {
    state.withLock { state in
      guard state.live.remove(token.id) != nil, var queue = state.queues.removeValue(forKey: token.queue) else {
        return
      }
      queue.dead += 1
      Self.dropDeadHead(of: &queue, live: state.live)
      if queue.dead * 2 > queue.entries.count - queue.head {
        queue.entries = queue.entries[queue.head...].filter { state.live.contains($0.id) }
        queue.head = 0
        queue.dead = 0
      }
      if queue.head == queue.entries.count {
        // Kept, empty, for the next call with this timeout: no queue to allocate per call.
        queue.entries.removeAll(keepingCapacity: true)
        queue.head = 0
        queue.dead = 0
      }
      state.queues[token.queue] = queue
    }
  }

  /// Entries still held in the queues, dead or live (for tests: finished calls must not pile up).
  var heldEntries: Int {
    state.withLock { state in state.queues.values.reduce(0) { $0 + $1.entries.count - $1.head } }
  }

  private static func dropDeadHead(of queue: inout Queue, live: Set<UInt64>) {
    while queue.head < queue.entries.count, !live.contains(queue.entries[queue.head].id) {
      queue.head += 1
      queue.dead -= 1
    }
    if queue.head > 64, queue.head * 2 > queue.entries.count {
      queue.entries.removeFirst(queue.head)
      queue.head = 0
    }
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
        for key in Array(state.queues.keys) {
          guard var queue = state.queues.removeValue(forKey: key) else { continue }
          while queue.head < queue.entries.count {
            let entry = queue.entries[queue.head]
            if state.live.contains(entry.id) {
              guard entry.due <= now else { break }
              state.live.remove(entry.id)
              due.append(entry)
            } else {
              queue.dead -= 1
            }
            queue.head += 1
          }
          guard queue.head < queue.entries.count else { continue }
          let head = queue.entries[queue.head].due
          next = next.map { min($0, head) } ?? head
          state.queues[key] = queue
        }
        state.wakeAt = next
        if next == nil { state.sleeper = nil }
        return (due, next)
      }
      // Deadlines of different timeouts due at one wake expire in due order.
      for entry in due.sorted(by: { $0.due < $1.due }) { entry.expire() }
      guard let next else { return }
      do {
        try await Task.sleep(until: next, clock: .continuous)
      } catch {
        return
      }
    }
  }
}
