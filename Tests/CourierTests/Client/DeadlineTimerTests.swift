import CourierTestSupport
import Foundation
import Testing

@testable import Courier

@Suite(.timeLimit(.minutes(1))) struct DeadlineTimerTests {
  @Test func deadlinesExpireInTheirOrderAndAnEarlierOneWakesTheTimerSooner() async throws {
    let timer = DeadlineTimer()
    let fired = Locked<[String]>([])
    let stopwatch = Stopwatch()
    _ = timer.register(timeout: 30) { fired.withLock { $0.append("late") } }
    _ = timer.register(timeout: 0.3) { fired.withLock { $0.append("b") } }
    _ = timer.register(timeout: 0.1) { fired.withLock { $0.append("a") } }
    while fired.withLock({ $0.count }) < 2, stopwatch.elapsed < 20 { try await pause(milliseconds: 10) }
    #expect(fired.withLock { $0 } == ["a", "b"])
    #expect(stopwatch.elapsed < 20, "the 30 s deadline did not hold back the short ones")
  }

  @Test func aFinishedCallNeverExpiresAndLeavesNothingBehind() async throws {
    let timer = DeadlineTimer()
    let fired = Locked(0)
    // A thread held up for 50 ms between the two calls sees its deadline pass: those, and only those, expire.
    var late = 0
    for _ in 0..<10_000 {
      let token = timer.register(timeout: 0.05) { fired.withLock { $0 += 1 } }
      if !timer.unregister(token) { late += 1 }
    }
    let kept = timer.register(timeout: 60) {}
    var tokens: [DeadlineTimer.Token] = []
    for _ in 0..<1_000 { tokens.append(timer.register(timeout: 60) { fired.withLock { $0 += 1 } }) }
    for token in tokens { timer.unregister(token) }
    #expect(timer.heldEntries < 600, "dead entries are compacted: \(timer.heldEntries)")
    // The timer runs a deadline's expiry after taking it out, on its own thread: wait for the late ones to be run.
    let stopwatch = Stopwatch()
    while fired.withLock({ $0 }) < late, stopwatch.elapsed < 20 { try await pause(milliseconds: 10) }
    try await pause(milliseconds: 200)
    #expect(fired.withLock { $0 } == late)
    timer.unregister(kept)
    #expect(timer.heldEntries == 0)
  }

  @Test func unregisteringSaysWhetherTheDeadlineHadPassedWhateverTheOrderCallsFinishIn() async throws {
    let timer = DeadlineTimer()
    let fired = Locked(0)
    let early = timer.register(timeout: 0.05) { fired.withLock { $0 += 1 } }
    var tokens = (0..<500).map { _ in timer.register(timeout: 60) { fired.withLock { $0 += 1 } } }
    // Finishing three calls in four, from the back, compacts the queue, so the rest no longer sit at their index.
    for index in tokens.indices.reversed() where index % 4 != 0 { #expect(timer.unregister(tokens[index])) }
    tokens = stride(from: 0, to: tokens.count, by: 4).map { tokens[$0] }
    #expect(timer.heldEntries <= 260)
    for token in tokens.reversed() { #expect(timer.unregister(token), "finished in time") }
    let stopwatch = Stopwatch()
    while fired.withLock({ $0 }) == 0, stopwatch.elapsed < 10 { try await pause(milliseconds: 10) }
    #expect(!timer.unregister(early), "its deadline had passed")
    #expect(fired.withLock { $0 } == 1)
    #expect(timer.heldEntries == 0)
  }

  @Test func aDeadlineThroughTheTimerCancelsTheWorkAndSaysSo() async throws {
    let timer = DeadlineTimer()
    let stopwatch = Stopwatch()
    await #expect(throws: Deadline.Expired.self) {
      try await Deadline.run(seconds: 0.2, timer: timer) { try await Task.sleep(nanoseconds: 20_000_000_000) }
    }
    #expect(stopwatch.elapsed < 10)
    let value = try await Deadline.run(seconds: 5, timer: timer) { 42 }
    #expect(value == 42)
    #expect(timer.heldEntries == 0)
  }
}
