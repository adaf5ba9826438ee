import Courier
import Foundation

/// The clock of tests: time moves only when the test says, so deadlines, idle timeouts, minimum durations, retry
/// delays and cache ages are checked exactly instead of against a busy machine's wall clock.
///
/// Give it to a client (`configuration.clock`) and to the interceptors that wait (`RetryInterceptor(clock:)`,
/// `CacheInterceptor(clock:)`). By default every ``sleep(seconds:)`` returns at once, is recorded, and moves the
/// clock on, so retries, `Retry-After` and stub delays run instantly but still add up:
///
/// ```swift
/// let clock = TestCallClock()
/// let client = APIClient.testing(transport: StubTransport(
///   .get("/feed").reply(.status(.serviceUnavailable, headerFields: [.retryAfter: "4"]), .json(feed))
/// )) { $0.interceptors = [RetryInterceptor(clock: clock)] }
///
/// _ = try await client.value(Endpoint<Feed>.get("/feed"))
/// #expect(clock.sleeps == [4])
/// ```
///
/// Made with `advancesOnSleep: false`, a sleep waits until the test moves the clock past its end with
/// ``advance(by:)``, which also runs the timers due by then (a call's deadline among them), in due order:
///
/// ```swift
/// let clock = TestCallClock(advancesOnSleep: false)
/// let client = APIClient.testing(transport: hangingTransport) { $0.clock = clock }
/// let call = Task { try await client.send(Endpoint<Data>.get("/slow").timeout(1)) }
/// await clock.advance(by: 0.999)  // not yet
/// await clock.advance(by: 0.001)  // the deadline passes: the call throws a timeout
/// ```
public final class TestCallClock: CallClock {
  private struct Waiter {
    let due: Int64
    let id: UInt64
    let resume: @Sendable () -> Void
  }

  private struct State {
    var now: Date
    /// Nanoseconds the clock has moved since it was made.
    var elapsed: Int64 = 0
    var sleeps: [TimeInterval] = []
    var waiters: [Waiter] = []
    var nextID: UInt64 = 0
  }

  private let state: Locked<State>
  private let advancesOnSleep: Bool

  /// Creates a clock that starts at `now`.
  ///
  /// - Parameters:
  ///   - now: The clock's time to begin with; by default 2027-01-15 08:00:00 UTC, the same in every run.
  ///   - advancesOnSleep: Whether a sleep returns at once and moves the clock on (the default), or waits until
  ///     ``advance(by:)`` moves the clock past its end.
  public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000), advancesOnSleep: Bool = true) {
    state = Locked(State(now: now))
    self.advancesOnSleep = advancesOnSleep
  }

  /// The clock's time: where it started plus every move since.
  public var now: Date {
    state.withLock { $0.now }
  }

  /// Seconds the clock has moved since it was made, counted in whole nanoseconds so that moves add up exactly.
  public var uptime: TimeInterval {
    state.withLock { Double($0.elapsed) / 1e9 }
  }

  /// Every sleep requested, in seconds, in order.
  public var sleeps: [TimeInterval] {
    state.withLock { $0.sleeps }
  }

  /// The total of every sleep so far, in seconds.
  public var elapsed: TimeInterval {
    sleeps.reduce(0, +)
  }

  /// How many sleeps and timers are waiting for the clock to move.
  public var pendingWaits: Int {
    state.withLock { $0.waiters.count }
  }

  /// Records the sleep and, by default, moves the clock on without waiting; made with `advancesOnSleep: false`,
  /// waits until ``advance(by:)`` moves the clock past its end. Throws `CancellationError` when the task is
  /// cancelled.
  public func sleep(seconds: TimeInterval) async throws {
    try Task.checkCancellation()
    state.withLock { $0.sleeps.append(seconds) }
    if advancesOnSleep {
      advance(nanoseconds: Self.nanoseconds(seconds))
      return
    }
    // The continuation, or how the sleep ended when that came before the continuation was stored.
    let waiting = Locked<(continuation: CheckedContinuation<Void, any Error>?, ended: Bool?)>((nil, nil))
    let end: @Sendable (_ cancelled: Bool) -> Void = { cancelled in
      let continuation = waiting.withLock { waiting -> CheckedContinuation<Void, any Error>? in
        guard waiting.ended == nil else { return nil }
        waiting.ended = cancelled
        defer { waiting.continuation = nil }
        return waiting.continuation
      }
      if cancelled { continuation?.resume(throwing: CancellationError()) } else { continuation?.resume() }
    }
    let cancelTimer = schedule(after: seconds) { end(false) }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let ended = waiting.withLock { waiting -> Bool? in
          if waiting.ended == nil { waiting.continuation = continuation }
          return waiting.ended
        }
        switch ended {
        case nil: break
        case true?: continuation.resume(throwing: CancellationError())
        case false?: continuation.resume()
        }
      }
    } onCancel: {
      cancelTimer()
      end(true)
    }
  }

  /// Runs `action` once the clock has moved `seconds` on (at the ``advance(by:)`` that gets there; a timer due now
  /// runs at the next one); the returned closure cancels it.
  public func schedule(
    after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void
  ) -> @Sendable () -> Void {
    let id = state.withLock { state in
      state.nextID &+= 1
      let due = state.elapsed + Self.nanoseconds(seconds)
      let waiter = Waiter(due: due, id: state.nextID, resume: action)
      let index = state.waiters.firstIndex { $0.due > due } ?? state.waiters.endIndex
      state.waiters.insert(waiter, at: index)
      return state.nextID
    }
    return { [state] in state.withLock { $0.waiters.removeAll { $0.id == id } } }
  }

  /// Moves the clock `seconds` on, running every timer and ending every sleep due by then, in due order; a timer
  /// that one of them schedules within the move runs too.
  public func advance(by seconds: TimeInterval) {
    advance(nanoseconds: Self.nanoseconds(seconds))
  }

  private func advance(nanoseconds: Int64) {
    let target = state.withLock { $0.elapsed + max(nanoseconds, 0) }
    while true {
      let next = state.withLock { state -> Waiter? in
        guard let first = state.waiters.first, first.due <= target else {
          let moved = target - state.elapsed
          state.elapsed = target
          state.now += Double(moved) / 1e9
          return nil
        }
        state.waiters.removeFirst()
        let moved = max(first.due - state.elapsed, 0)
        state.elapsed += moved
        state.now += Double(moved) / 1e9
        return first
      }
      guard let next else { return }
      next.resume()
    }
  }

  private static func nanoseconds(_ seconds: TimeInterval) -> Int64 {
    Int64((min(max(seconds, 0), 1e9) * 1e9).rounded())
  }
}

/// The former name of ``TestCallClock``.
@available(*, deprecated, renamed: "TestCallClock")
public typealias TestDelayClock = TestCallClock
