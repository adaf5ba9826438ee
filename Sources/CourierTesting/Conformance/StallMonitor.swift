import Courier
import Foundation

/// Measures, while a timed step runs, how long the whole process stood still, and how long Swift's shared pool did.
///
/// Two probes sleep 10 ms at a time and note how much later than that they woke:
/// - one on a thread of its own, outside Swift's shared pool, which nothing the transport does with the pool can
///   delay: it wakes late only when the whole process (or the machine) stalls, which delays any transport alike;
/// - one task on the shared pool: it wakes late also when something keeps every thread of the pool busy — a
///   transport that blocks the pool's threads, which is the transport's fault and never counts towards the slack.
package final class StallMonitor: Sendable {
  /// What the probes measured, in seconds.
  package struct Stalls: Sendable {
    /// The longest time the thread outside the pool woke late: a stall of the whole process.
    package var process: Double = 0
    /// The longest time the task on the shared pool woke late.
    package var pool: Double = 0
    /// How late the task on the shared pool woke in all: what a chain of hops through a busy pool may add up to.
    package var poolTotal: Double = 0

    package init(process: Double = 0, pool: Double = 0) {
      self.process = process
      self.pool = pool
    }
  }

  private static let interval = 0.01
  private let state = Locked<(stalls: Stalls, running: Bool)>((Stalls(), true))
  private let poolProbe: Task<Void, Never>

  /// Starts both probes; ``stop()`` ends them.
  package init() {
    let state = self.state
    let interval = Self.interval
    // The thread takes its first reading before the timed step begins: a thread that started late (a busy machine
    // starts threads late) would otherwise miss a stall at the start of the step.
    let started = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var last = Uptime.now
      started.signal()
      while state.withLock({ $0.running }) {
        usleep(UInt32(interval * 1e6))
        let now = Uptime.now
        let late = now - last - interval
        state.withLock { $0.stalls.process = max($0.stalls.process, late) }
        last = now
      }
    }
    started.wait()
    poolProbe = Task {
      var last = Uptime.now
      while true {
        let cancelled = (try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))) == nil
        let now = Uptime.now
        let late = now - last - interval
        state.withLock { state in
          state.stalls.pool = max(state.stalls.pool, late)
          state.stalls.poolTotal += max(late, 0)
        }
        if cancelled { return }
        last = now
      }
    }
  }

  /// What the probes measured so far; they go on.
  package var current: Stalls { state.withLock { $0.stalls } }

  /// Ends the probes and returns what they measured; the pool's probe is awaited, so a pool still blocked shows.
  package func stop() async -> Stalls {
    poolProbe.cancel()
    await poolProbe.value
    return state.withLock { state in
      state.running = false
      return state.stalls
    }
  }
}

/// Monotonic seconds, read the same way by both probes and the timed step.
enum Uptime {
  static var now: Double { ProcessInfo.processInfo.systemUptime }
}
