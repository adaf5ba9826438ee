import Courier
import CourierTesting
import Foundation
import Testing

/// Checks that `call`, started on a client whose clock is `clock` (made with `advancesOnSleep: false`), ends with a
/// timeout exactly at its `timeout`: once `inFlight` holds, the clock moves to a millisecond before the deadline and
/// the call must still be running; one millisecond more and it must end with a timeout within `realSeconds` of real
/// time — choose a timeout whose transport timeout (the next whole second plus one) is longer, so that only the
/// deadline can end it in time. Returns the error.
@discardableResult
public func expectTimeout<Value: Sendable>(
  on clock: TestDelayClock,
  at timeout: TimeInterval,
  once inFlight: @escaping @Sendable () -> Bool,
  within realSeconds: TimeInterval = 20,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ call: @escaping @Sendable () async throws -> Value
) async throws -> CourierError? {
  let ended = Locked(false)
  let task = Task {
    defer { ended.withLock { $0 = true } }
    return try await call()
  }
  defer { task.cancel() }
  try await waitUntil("the call to be in flight") { inFlight() }
  let start = clock.uptime
  clock.advance(by: timeout - 0.001)
  // A call whose deadline has not passed never ends; a short real pause shows one that ended early.
  try await Task.sleep(for: .milliseconds(50))
  #expect(!ended.withLock { $0 }, "the call ended before its \(timeout) s deadline", sourceLocation: sourceLocation)
  clock.advance(by: 0.001)
  #expect(clock.uptime - start == timeout, sourceLocation: sourceLocation)
  try await waitUntil("the call to end at its deadline", within: realSeconds) { ended.withLock { $0 } }
  do {
    _ = try await task.value
    Issue.record("the call succeeded past its deadline", sourceLocation: sourceLocation)
    return nil
  } catch let error as CourierError {
    #expect(error.kind == .timeout, "\(error)", sourceLocation: sourceLocation)
    return error
  }
}

/// Expects `body` to take at most `expected + slack` seconds of real time, forgiving the time Swift's shared pool or
/// the whole process stood still meanwhile (other tests of a busy process hold the pool, and a call crosses it several
/// times, so all the pool's delays count; the transport conformance suite is where a transport's own blocking of the
/// pool is caught), up to `cap` seconds — choose `cap` so that the
/// bound stays below what a broken behaviour would take. A late try fails when the machine stood still for no longer
/// than `slack`: the lateness was the code's. A late try during a longer stall tells nothing — the probes see the
/// longest stalls, not every short one, so their measure is a lower bound — and runs again, up to `tries` times;
/// after the last, a failure says so. Returns the seconds of the last try.
@discardableResult
public func expectOnTime(
  _ what: String, expected: TimeInterval, slack: TimeInterval = 0.1, stallCap cap: TimeInterval, tries: Int = 3,
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async throws -> TimeInterval {
  var stalls: [TimeInterval] = []
  var elapsed: TimeInterval = 0
  for _ in 0..<tries {
    let monitor = StallMonitor()
    let stopwatch = Stopwatch()
    try await body()
    elapsed = stopwatch.elapsed
    let measured = await monitor.stop()
    let stall = max(measured.poolTotal, measured.process)
    if elapsed <= expected + slack + min(stall, cap) { return elapsed }
    guard stall > slack else {
      Issue.record(
        "\(what) took \(elapsed) s, more than \(expected) s + \(slack) s + the \(stall) s the machine stood still",
        sourceLocation: sourceLocation)
      return elapsed
    }
    stalls.append(stall)
  }
  let comment = Comment(
    rawValue: "inconclusive: \(what) took \(elapsed) s, and the machine stood still for longer than \(slack) s in "
      + "each of \(tries) tries (\(stalls) s)")
  Issue.record(comment, sourceLocation: sourceLocation)
  return elapsed
}
