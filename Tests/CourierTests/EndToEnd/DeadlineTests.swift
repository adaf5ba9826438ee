import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

/// One deadline per call, over the head and the whole body, on every transport.
///
/// A call's own deadline is checked on a clock the tests move (DeadlineCancellationTests, DeadlineTimerTests); here, over
/// real sockets, the bounds forgive the time the machine stood still, up to a cap that keeps each below what the
/// transport's own timeout would take.
@Suite(.timeLimit(.minutes(1))) struct DeadlineTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aTricklingBodyIsBoundedByTheCallsTimeout(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        // 15 s of the body's 30: room for the head to arrive while the whole suite shares two cores.
        try await client.send(Endpoint<Data>.get("/download/60000").query("rate", 2000).timeout(15))
      }
      #expect(error?.kind == .timeout, "the 30 s body must not be read whole")
      #expect(error?.status == .ok, "the head had arrived")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aSubSecondTimeoutIsKeptToTheMillisecond(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      // The transport's own timeout is 2 s (the next whole second plus one): a deadline not kept ends there, with the
      // transport's error; libcurl's truncation of a sub-second timeout would end it at once. So the call must end no
      // earlier than 0.5 s and by Courier's deadline — a fact of the outcome, not of how fast the machine ran. (To the
      // millisecond is checked on a clock the tests move: DeadlineCancellationTests, DeadlineTimerTests.) Only a stall
      // of the whole process as long as the 1.5 s between the two timeouts can let the transport's fire first; such a
      // try tells nothing and runs again.
      for attempt in 1...3 {
        let monitor = StallMonitor()
        let stopwatch = Stopwatch()
        let error = await #expect(throws: CourierError.self) {
          try await client.send(Endpoint<EmptyBody>.get("/slow").query("ms", 30_000).timeout(0.5))
        }
        let elapsed = stopwatch.elapsed
        let stall = await monitor.stop().process
        #expect(elapsed >= 0.5, "the deadline expired early: \(elapsed) s")
        #expect(error?.kind == .timeout, "\(String(describing: error))")
        let byTheDeadline = error?.detail == "The call did not finish within its timeout of 0.5 s"
        if byTheDeadline || stall < 1.5 || attempt == 3 {
          #expect(
            byTheDeadline, "the transport's timeout ended the call, not its deadline: \(String(describing: error))")
          return
        }
      }
    }
  }
}
