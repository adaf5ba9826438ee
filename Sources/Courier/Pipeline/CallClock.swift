import Dispatch
import Foundation

/// The time source of a client's calls and of the interceptors that wait: deadlines, idle timeouts, minimum
/// durations, retry delays and the cache's notion of now. Inject CourierTesting's `TestCallClock` so that tests
/// control time instead of sleeping.
///
/// A clock of your own needs ``now`` and ``sleep(seconds:)``; the deadline's timer then waits with
/// ``sleep(seconds:)`` in a task (``schedule(after:_:)``'s default).
///
/// ```swift
/// struct InstantClock: CallClock {
///   var now: Date { Date(timeIntervalSince1970: 0) }
///   func sleep(seconds: TimeInterval) async throws { try Task.checkCancellation() }
/// }
/// ```
public protocol CallClock: Sendable {
  /// The current wall-clock time, for `Retry-After` dates and the cache's ages.
  var now: Date { get }
  /// Waits `seconds`; throws when the task is cancelled.
  func sleep(seconds: TimeInterval) async throws
  /// Seconds that only ever grow, for deadlines and durations; by default ``now``'s.
  var uptime: TimeInterval { get }
  /// Runs `action` once `seconds` have passed on this clock, unless the returned closure, which cancels it, is
  /// called first. The default waits with ``sleep(seconds:)`` in a task of its own.
  func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void
}

/// The former name of ``CallClock``, which keeps the time of a client's calls.
@available(*, deprecated, renamed: "CallClock")
public typealias DelayClock = CallClock

extension CallClock {
  /// ``now`` in seconds since the reference date.
  public var uptime: TimeInterval { now.timeIntervalSinceReferenceDate }

  /// Runs `action` after ``sleep(seconds:)`` returns in a task of its own; the returned closure cancels the task.
  public func schedule(
    after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void
  ) -> @Sendable () -> Void {
    let task = Task {
      do { try await sleep(seconds: seconds) } catch { return }
      action()
    }
    return { task.cancel() }
  }
}

/// The real clock, used wherever a `clock` parameter is left `nil`.
///
/// Its timers are Dispatch timer sources on a queue of their own, not tasks: a deadline fires on time however busy
/// Swift's shared pool is (what it cancels still needs a thread of the pool to resume).
package struct SystemCallClock: CallClock {
  /// The queue every timer of the system clock fires on.
  private static let timers = DispatchQueue(label: "Courier.CallClock.timers", qos: .userInitiated)

  /// Creates the clock.
  package init() {}

  /// Now.
  package var now: Date { Date() }

  /// Seconds since boot.
  package var uptime: TimeInterval { ProcessInfo.processInfo.systemUptime }

  /// Sleeps on `Task.sleep`.
  package func sleep(seconds: TimeInterval) async throws {
    try await Courier.sleep(seconds: seconds)
  }

  /// A strict Dispatch timer source, cancelled by the returned closure.
  package func schedule(
    after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void
  ) -> @Sendable () -> Void {
    let source = DispatchSource.makeTimerSource(flags: .strict, queue: Self.timers)
    // Held until it fires or is cancelled; releasing it then also releases the handler, which holds it.
    let held = Locked<(any DispatchSourceTimer)?>(source)
    let cancel: @Sendable () -> Void = { held.withLock { $0.take() }?.cancel() }
    // `DispatchTime + Double` clamps; `.nanoseconds(Int)` would trap past 2.1 s where `Int` has 32 bits (watchOS).
    source.schedule(deadline: .now() + min(max(seconds, 0), 1e9), leeway: .nanoseconds(0))
    source.setEventHandler {
      cancel()
      action()
    }
    source.activate()
    return cancel
  }
}
