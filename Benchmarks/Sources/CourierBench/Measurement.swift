import Foundation

/// One scenario's result, printed as a single `RESULT` line that `run.sh` reads.
struct Measurement {
  /// Operations (requests, encodes) or bytes per second.
  var value: Double
  /// `req/s`, `MB/s` or `encodes/s`.
  var unit: String
  var operations: Int
  var seconds: Double

  /// The line `run.sh` parses; the process's peak resident set size is read last, after all the work.
  func report() {
    let line = String(
      format: "RESULT value=%.1f unit=%@ operations=%d seconds=%.3f peak_rss_kib=%d",
      value, unit, operations, seconds, PeakMemory.kibibytes())
    print(line)
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
