import Foundation

/// The time source retries wait on; inject a test clock so tests do not sleep.
///
/// ```swift
/// struct InstantClock: DelayClock {
///   let delays: Locked<[TimeInterval]>
///   var now: Date { Date(timeIntervalSince1970: 0) }
///   func sleep(seconds: TimeInterval) async throws { delays.withLock { $0.append(seconds) } }
/// }
/// ```
public protocol DelayClock: Sendable {
  /// The current wall-clock time, for `Retry-After` dates.
  var now: Date { get }
  /// Waits `seconds`; throws when the task is cancelled.
  func sleep(seconds: TimeInterval) async throws
}

/// The real clock, used wherever a `clock` parameter is left `nil`.
package struct SystemDelayClock: DelayClock {
  /// Creates the clock.
  package init() {}

  /// Now.
  package var now: Date { Date() }

  /// Sleeps on `Task.sleep`.
  package func sleep(seconds: TimeInterval) async throws {
    try await Courier.sleep(seconds: seconds)
  }
}
