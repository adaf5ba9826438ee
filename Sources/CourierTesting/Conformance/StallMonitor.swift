import Courier
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures, while a timed step runs, how long the whole process stood still, and how long Swift's shared pool did.
///
/// Two probes sleep 10 ms at a time and note how much later than that they woke:
/// - one on a thread of its own, outside Swift's shared pool, which nothing the transport does with the pool can
///   delay: it wakes late only when the whole process (or the machine) stalls, which delays any transport alike;
/// - one task on the shared pool: it wakes late also when something keeps every thread of the pool busy — a
///   transport that blocks the pool's threads, which is the transport's fault and never counts towards the slack.
///
/// A machine busy with other processes slows a step without stopping it: each thread wakes in time, then shares the
/// CPU with them, so the step's work takes longer than it would alone. Where the system says how long each thread
/// waited in a run queue (Linux's `/proc/self/task/*/schedstat`), the monitor also reads ``Stalls/waited``: the time
/// the process's threads were ready to run while the machine ran something else, less the probes' own waits.
package final class StallMonitor: Sendable {
  /// What the probes measured, in seconds.
  package struct Stalls: Sendable {
    /// The longest time the thread outside the pool woke late: a stall of the whole process.
    package var process: Double = 0
    /// The longest time the task on the shared pool woke late.
    package var pool: Double = 0
    /// How late the task on the shared pool woke in all: what a chain of hops through a busy pool may add up to.
    package var poolTotal: Double = 0
    /// How long the process had work ready to run while the machine gave its CPUs to other processes: the time its
    /// threads (all but the probe thread's) waited in a run queue, less how late the pool's probe woke in all
    /// (``poolTotal``: its own waits, and the waits of any job queued behind other work of the process on the
    /// pool), at most the step's time less the CPU time the process had meanwhile. A thread that sleeps, blocked on
    /// a lock, a semaphore or a timer, waits in no run queue. Zero where the system does not say.
    ///
    /// It is the process's: work of the same process that is not the step's (other tests beside it) may wait in a
    /// run queue too and count, so the step is measured best in a process of its own.
    package var waited: Double = 0

    package init(process: Double = 0, pool: Double = 0, waited: Double = 0) {
      self.process = process
      self.pool = pool
      self.waited = waited
    }

    /// The stall a timed check forgives: the longest time the whole process stood still, or the time the machine
    /// kept it waiting for a CPU, whichever is longer.
    package var machine: Double { max(process, waited) }
  }

  private static let interval = 0.01
  private let state = Locked<(stalls: Stalls, running: Bool, probeThread: Int?)>((Stalls(), true, nil))
  private let poolProbe: Task<Void, Never>
  private let startedAt: RunQueueReading

  /// Starts both probes; ``stop()`` ends them.
  package init() {
    let state = self.state
    let interval = Self.interval
    // The thread takes its first reading before the timed step begins: a thread that started late (a busy machine
    // starts threads late) would otherwise miss a stall at the start of the step.
    let started = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var last = Uptime.now
      let thread = RunQueueReading.currentThread
      state.withLock { $0.probeThread = thread }
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
    startedAt = RunQueueReading()
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
    let ended = RunQueueReading()
    return state.withLock { state in
      state.running = false
      state.stalls.waited = ended.waited(
        since: startedAt, excluding: state.probeThread, lessThePoolProbes: state.stalls.poolTotal)
      return state.stalls
    }
  }
}

/// The time each thread of the process has waited in a run queue, and the process's CPU time, read at one moment.
struct RunQueueReading: Sendable {
  let uptime: Double
  let cpu: Double
  /// Nanoseconds each thread has waited in a run queue since it started, by thread id; empty where the system does
  /// not say.
  let waits: [Int: UInt64]

  init() {
    uptime = Uptime.now
    var spec = timespec()
    cpu = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec) == 0 ? Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9 : 0
    waits = Self.readWaits()
  }

  /// The seconds the threads read now, all but `excluded`, waited in a run queue since `earlier` (a thread started
  /// meanwhile, since it started), less `probes` seconds, at most the time between the readings less the CPU time
  /// the process had meanwhile; zero when either reading says nothing.
  func waited(since earlier: RunQueueReading, excluding excluded: Int?, lessThePoolProbes probes: Double) -> Double {
    guard !earlier.waits.isEmpty, !waits.isEmpty else { return 0 }
    var nanoseconds: UInt64 = 0
    for (thread, wait) in waits where thread != excluded {
      let before = earlier.waits[thread] ?? 0
      if wait > before { nanoseconds += wait - before }
    }
    let withheld = (uptime - earlier.uptime) - (cpu - earlier.cpu)
    return max(0, min(Double(nanoseconds) / 1e9 - probes, withheld))
  }

  /// The calling thread's id as `/proc/self/task` names it, or `nil` where there is none.
  static var currentThread: Int? {
    #if os(Linux)
    guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self") else {
      return nil
    }
    return link.split(separator: "/").last.flatMap { Int($0) }
    #else
    return nil
    #endif
  }

  /// Reads the second field of `/proc/self/task/<id>/schedstat` (the nanoseconds spent waiting in a run queue) for
  /// every thread of the process.
  private static func readWaits() -> [Int: UInt64] {
    #if os(Linux)
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return [:] }
    var waits: [Int: UInt64] = [:]
    for name in threads {
      guard let thread = Int(name),
        let text = try? String(contentsOfFile: "/proc/self/task/\(name)/schedstat", encoding: .utf8)
      else { continue }
      let fields = text.split(separator: " ")
      if fields.count >= 2, let wait = UInt64(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) {
        waits[thread] = wait
      }
    }
    return waits
    #else
    return [:]
    #endif
  }
}

/// Monotonic seconds, read the same way by both probes and the timed step.
enum Uptime {
  static var now: Double { ProcessInfo.processInfo.systemUptime }
}
