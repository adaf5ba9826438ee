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
  on clock: TestCallClock,
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

/// Expects `call`, whose endpoint has a deadline of `timeout` seconds that the server will not meet, to end with
/// Courier's own timeout — not earlier, and not by the transport's timeout (the next whole second plus one) — which is
/// a fact of the outcome, not of how fast the machine ran. Only a stall of the whole process as long as the time
/// between the two timeouts lets the transport's fire first; such a try tells nothing and runs again, up to three
/// times. To the millisecond is checked on a clock the tests move (`expectTimeout(on:at:once:within:_:)`).
public func expectEndedByItsDeadline<Value: Sendable>(
  _ timeout: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation,
  _ call: @escaping @Sendable () async throws -> Value
) async throws {
  let transportTimeout = (timeout + 1).rounded(.up)
  for attempt in 1...3 {
    let monitor = StallMonitor()
    let stopwatch = Stopwatch()
    let error = await #expect(throws: CourierError.self, sourceLocation: sourceLocation) { _ = try await call() }
    let elapsed = stopwatch.elapsed
    let stall = await monitor.stop().process
    #expect(elapsed >= timeout, "the deadline expired early: \(elapsed) s", sourceLocation: sourceLocation)
    #expect(error?.kind == .timeout, "\(String(describing: error))", sourceLocation: sourceLocation)
    let byTheDeadline = error?.detail == "The call did not finish within its timeout of \(timeout) s"
    if byTheDeadline || stall < transportTimeout - timeout || attempt == 3 {
      #expect(
        byTheDeadline, "the transport's timeout ended the call, not its deadline: \(String(describing: error))",
        sourceLocation: sourceLocation)
      return
    }
  }
}

/// Expects the call `start` begins, on a client whose clock is `clock` (made with `advancesOnSleep: false`), to end
/// with a timeout once the clock passes its `timeout` while its body is still arriving: the test waits until bytes of
/// the body were reported (through the `onDownloadProgress` handler `start` is given), then moves the clock. A head
/// that comes late on a busy machine cannot be mistaken for a deadline that ended the call before it.
public func expectTimeoutWhileTheBodyArrives<Value: Sendable>(
  on clock: TestCallClock, at timeout: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation,
  _ start: @escaping @Sendable (_ onProgress: @escaping @Sendable (TransferProgress) -> Void) async throws -> Value
) async throws {
  let received = Locked(Int64(0))
  let call = Task { try await start { progress in received.withLock { $0 = progress.completedBytes } } }
  defer { call.cancel() }
  try await waitUntil("the body is arriving") { received.withLock { $0 } > 0 }
  clock.advance(by: timeout)
  let error = await #expect(throws: CourierError.self, sourceLocation: sourceLocation) { _ = try await call.value }
  #expect(error?.kind == .timeout, "\(String(describing: error))", sourceLocation: sourceLocation)
  #expect(error?.status == .ok, "the head had arrived", sourceLocation: sourceLocation)
}
