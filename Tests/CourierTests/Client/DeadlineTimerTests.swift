import CourierTestSupport
import CourierTesting
import Foundation
import Testing

@testable import Courier

/// The client's deadline timer, on a clock the test moves by hand: a deadline expires when its time has come, never
/// a tick before and never a tick after.
@Suite(.hangGuard) struct DeadlineTimerTests {
  private let clock = TestCallClock(advancesOnSleep: false)

  @Test func aDeadlineExpiresWhenItsTimeHasComeNeverBeforeAndNeverAfter() {
    let timer = DeadlineTimer(clock: clock)
    let fired = Locked(0)
    _ = timer.register(timeout: 1) { fired.withLock { $0 += 1 } }
    clock.advance(by: 0.999)
    #expect(fired.withLock { $0 } == 0, "expired a millisecond early")
    clock.advance(by: 0.001)
    #expect(fired.withLock { $0 } == 1, "did not expire when its time had come")
    clock.advance(by: 10)
    #expect(fired.withLock { $0 } == 1, "expired twice")
    #expect(timer.heldEntries == 0)
  }

  @Test func deadlinesExpireInTheirOrderAndAnEarlierOneWakesTheTimerSooner() {
    let timer = DeadlineTimer(clock: clock)
    let fired = Locked<[String]>([])
    _ = timer.register(timeout: 30) { fired.withLock { $0.append("late") } }
    _ = timer.register(timeout: 0.3) { fired.withLock { $0.append("b") } }
    _ = timer.register(timeout: 0.1) { fired.withLock { $0.append("a") } }
    clock.advance(by: 0.1)
    #expect(fired.withLock { $0 } == ["a"])
    clock.advance(by: 0.199)
    #expect(fired.withLock { $0 } == ["a"])
    clock.advance(by: 0.001)
    #expect(fired.withLock { $0 } == ["a", "b"])
    clock.advance(by: 29.699)
    #expect(fired.withLock { $0 } == ["a", "b"])
    clock.advance(by: 0.001)
    #expect(fired.withLock { $0 } == ["a", "b", "late"])
    // Deadlines due within one move expire in due order, whatever their timeouts.
    _ = timer.register(timeout: 2) { fired.withLock { $0.append("d") } }
    _ = timer.register(timeout: 1) { fired.withLock { $0.append("c") } }
    clock.advance(by: 5)
    #expect(fired.withLock { $0 } == ["a", "b", "late", "c", "d"])
  }

  @Test func aFinishedCallNeverExpiresAndLeavesNothingBehind() {
    let timer = DeadlineTimer(clock: clock)
    let fired = Locked(0)
    for _ in 0..<10_000 {
      let token = timer.register(timeout: 0.05) { fired.withLock { $0 += 1 } }
      #expect(timer.unregister(token), "a call that finished in time")
    }
    let kept = timer.register(timeout: 60) {}
    var tokens: [DeadlineTimer.Token] = []
    for _ in 0..<1_000 { tokens.append(timer.register(timeout: 60) { fired.withLock { $0 += 1 } }) }
    for token in tokens { timer.unregister(token) }
    #expect(timer.heldEntries < 600, "dead entries are compacted: \(timer.heldEntries)")
    clock.advance(by: 120)
    #expect(fired.withLock { $0 } == 0, "a finished call expired")
    #expect(!timer.unregister(kept), "its deadline had passed")
    #expect(timer.heldEntries == 0)
  }

  @Test func unregisteringSaysWhetherTheDeadlineHadPassedWhateverTheOrderCallsFinishIn() {
    let timer = DeadlineTimer(clock: clock)
    let fired = Locked(0)
    let early = timer.register(timeout: 0.05) { fired.withLock { $0 += 1 } }
    var tokens = (0..<500).map { _ in timer.register(timeout: 60) { fired.withLock { $0 += 1 } } }
    // Finishing three calls in four, from the back, compacts the queue, so the rest no longer sit at their index.
    for index in tokens.indices.reversed() where index % 4 != 0 { #expect(timer.unregister(tokens[index])) }
    tokens = stride(from: 0, to: tokens.count, by: 4).map { tokens[$0] }
    #expect(timer.heldEntries <= 260)
    clock.advance(by: 0.05)
    for token in tokens.reversed() { #expect(timer.unregister(token), "finished in time") }
    #expect(!timer.unregister(early), "its deadline had passed")
    #expect(fired.withLock { $0 } == 1)
    #expect(timer.heldEntries == 0)
  }

  @Test func aDeadlineThroughTheTimerCancelsTheWorkAtItsTimeAndSaysSo() async throws {
    let timer = DeadlineTimer(clock: clock)
    let finished = Locked(false)
    let work = Task {
      defer { finished.withLock { $0 = true } }
      try await Deadline.run(seconds: 0.2, timer: timer) { try await Task.sleep(for: .seconds(20)) }
    }
    try await waitUntil("the deadline was registered") { clock.pendingWaits == 1 }
    clock.advance(by: 0.199)
    // Work that is not cancelled never finishes; a short real pause shows a deadline that fired early.
    try await Task.sleep(for: .milliseconds(50))
    #expect(!finished.withLock { $0 }, "the work ended before its deadline")
    clock.advance(by: 0.001)
    await #expect(throws: Deadline.Expired.self) { try await work.value }
    let value = try await Deadline.run(seconds: 5, timer: timer) { 42 }
    #expect(value == 42)
    #expect(timer.heldEntries == 0)
  }

  @Test func anIdleLimitExpiresOnTheClockWhenNothingArrives() async throws {
    let timer = DeadlineTimer(clock: clock)
    let activity = Deadline.Activity(clock: clock)
    let finished = Locked(false)
    let work = Task {
      defer { finished.withLock { $0 = true } }
      try await Deadline.run(seconds: 60, idle: 1, activity: activity, timer: timer) {
        try await Task.sleep(for: .seconds(50))
      }
    }
    try await waitUntil("the idle limit's wait began") { clock.pendingWaits == 1 }
    clock.advance(by: 0.5)
    activity.touch()
    clock.advance(by: 0.5)
    // The wait ended at 1 s and found the work touched 0.5 s ago: it waits for the rest.
    try await waitUntil("the idle limit waited again") { clock.sleeps.count == 2 && clock.pendingWaits == 1 }
    clock.advance(by: 0.499)
    try await Task.sleep(for: .milliseconds(50))
    #expect(!finished.withLock { $0 }, "the idle limit expired early")
    clock.advance(by: 0.001)
    let error = await #expect(throws: Deadline.Expired.self) { try await work.value }
    #expect(error?.idle == 1)
    #expect(clock.uptime == 1.5)
  }

  /// The system clock keeps deadlines on a Dispatch timer, which a busy shared pool cannot hold up: a deadline
  /// expires while every thread of the pool is blocked. In a process of its own, so no other test is held up.
  @Test func aDeadlineOfTheSystemClockExpiresWhileThePoolIsBlocked() async {
    await #expect(processExitsWith: .success) {
      let timer = DeadlineTimer()
      let expiredAt = Locked<Double?>(nil)
      let unblockedAt = Locked<Double?>(nil)
      _ = timer.register(timeout: 0.2) { expiredAt.withLock { $0 = ProcessInfo.processInfo.systemUptime } }
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
          group.addTask {
            usleep(2_000_000)
            let now = ProcessInfo.processInfo.systemUptime
            unblockedAt.withLock { $0 = min($0 ?? now, now) }
          }
        }
      }
      guard let expired = expiredAt.withLock({ $0 }), let unblocked = unblockedAt.withLock({ $0 }),
        expired < unblocked
      else { exit(1) }
    }
  }
}
