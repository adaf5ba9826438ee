import Foundation

/// One scenario's result, printed as a single `RESULT` line that `run.sh` reads.
struct Measurement {
  /// Operations (requests, encodes) or bytes per second.
  var value: Double
  /// `req/s`, `MB/s` or `encodes/s`.
  var unit: String
  var operations: Int
  var seconds: Double
  /// Extra `name=value` fields for the `RESULT` line: a sequential scenario's per-call latency percentiles and the
  /// context switches per call.
  var extra: [(String, String)] = []

  /// The line `run.sh` parses; the process's peak resident set size is read last, after all the work.
  func report() {
    let line = String(
      format: "RESULT value=%.1f unit=%@ operations=%d seconds=%.3f peak_rss_kib=%d",
      value, unit, operations, seconds, PeakMemory.kibibytes())
    print(([line] + extra.map { "\($0.0)=\($0.1)" }).joined(separator: " "))
  }
}

/// The process's peak resident set size.
enum PeakMemory {
  /// `VmHWM` from `/proc/self/status` in KiB (0 where there is no procfs).
  static func kibibytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return 0
  }
}

/// Seconds on the monotonic clock since `start`.
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

struct BenchmarkFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The CPU time of the whole process so far, user and system, of every thread (`CLOCK_PROCESS_CPUTIME_ID`).
enum ProcessCPU {
  static func seconds() -> Double {
    var time = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

/// The context switches of the whole process so far, voluntary and involuntary, of every thread including those that
/// ended (`getrusage`): a call that waits for another thread costs a voluntary switch each time it hands over.
enum ContextSwitches {
  static func now() -> (voluntary: Int, involuntary: Int) {
    var usage = rusage()
    #if canImport(Glibc)
    let who = RUSAGE_SELF.rawValue
    #else
    let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return (0, 0) }
    return (Int(usage.ru_nvcsw), Int(usage.ru_nivcsw))
  }
}

/// Per-call wall times, for a sequential scenario's median and 99th percentile.
struct Latencies {
  private(set) var microseconds: [Double] = []
  init(capacity: Int) { microseconds.reserveCapacity(capacity) }
  mutating func record(since start: ContinuousClock.Instant) { microseconds.append(secondsSince(start) * 1e6) }
  /// The `q` quantile (nearest rank) in microseconds.
  func quantile(_ q: Double) -> Double {
    guard !microseconds.isEmpty else { return 0 }
    let sorted = microseconds.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)]
  }
}
