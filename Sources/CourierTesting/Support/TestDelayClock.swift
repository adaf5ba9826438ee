import Courier
import Foundation

/// A `DelayClock` for tests: every sleep returns at once and is recorded, and ``now`` moves forward by the time
/// slept, so retries, `Retry-After` and stub delays run instantly but still add up.
///
/// ```swift
/// let clock = TestDelayClock()
/// let client = APIClient.testing(transport: StubTransport(
///   .get("/feed").reply(.status(.serviceUnavailable, headerFields: [.retryAfter: "4"]), .json(feed))
/// )) { $0.interceptors = [RetryInterceptor(clock: clock)] }
///
/// _ = try await client.value(Endpoint<Feed>.get("/feed"))
/// #expect(clock.sleeps == [4])
/// ```
public final class TestDelayClock: DelayClock {
  private let state: Locked<(now: Date, sleeps: [TimeInterval])>

  /// Creates a clock that starts at `now`; by default 2027-01-15 08:00:00 UTC, the same in every run.
  public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    state = Locked((now, []))
  }

  /// The clock's time: where it started plus every sleep so far.
  public var now: Date {
    state.withLock { $0.now }
  }

  /// Every sleep requested, in seconds, in order.
  public var sleeps: [TimeInterval] {
    state.withLock { $0.sleeps }
  }

  /// The total of every sleep so far, in seconds.
  public var elapsed: TimeInterval {
    sleeps.reduce(0, +)
  }

  /// Records the sleep and moves ``now`` on, without waiting; throws `CancellationError` when the task is cancelled.
  public func sleep(seconds: TimeInterval) async throws {
    try Task.checkCancellation()
    state.withLock { state in
      state.sleeps.append(seconds)
      state.now += max(seconds, 0)
    }
  }
}
