import Foundation

/// Monotonic seconds since boot; `ContinuousClock` needs macOS 13 / iOS 16, above our deployment targets.
struct Uptime: Sendable, Comparable {
  let seconds: TimeInterval

  static var now: Uptime { Uptime(seconds: ProcessInfo.processInfo.systemUptime) }

  func elapsed(until end: Uptime = .now) -> TimeInterval { end.seconds - seconds }

  static func < (lhs: Uptime, rhs: Uptime) -> Bool { lhs.seconds < rhs.seconds }
}

/// Sleeps for `seconds`, throwing `CancellationError` at once when the task is cancelled.
func sleep(seconds: TimeInterval) async throws {
  guard seconds > 0 else { return }
  try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1e9))
}
