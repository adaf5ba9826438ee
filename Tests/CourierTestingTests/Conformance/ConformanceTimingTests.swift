import Courier
import Foundation
import Testing

@testable import CourierTesting

/// The conformance cases' timed checks allow for a stall of the whole process, which a probe measures.
@Suite(.timeLimit(.minutes(1))) struct ConformanceTimingTests {
  @Test func aStallOfTheWholeProcessCountsTowardsTheSlack() async throws {
    let run = ConformanceRun(transport: StubTransport(), slack: .milliseconds(100))
    let (_, elapsed) = await run.timed {
      // Twice as many jobs as the machine has processors, each blocking its thread for 100 ms, hold every thread of
      // the shared pool for at least 100 ms: the probe's 10 ms sleeps cannot end meanwhile.
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
          group.addTask { usleep(100_000) }
        }
      }
    }
    #expect(elapsed >= 0.1)
    #expect(run.slack >= 0.1 + 0.05, "the probe saw no stall: the slack is \(run.slack) s")
  }

  @Test func withoutATimedStepTheSlackIsTheOneGiven() {
    #expect(ConformanceRun(transport: StubTransport(), slack: .milliseconds(250)).slack == 0.25)
  }
}
