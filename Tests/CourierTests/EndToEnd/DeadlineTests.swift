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
@Suite(.hangGuard) struct DeadlineTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aTricklingBodyIsBoundedByTheCallsTimeout(_ transport: TransportKind) async throws {
    let clock = TestCallClock(advancesOnSleep: false)
    try await withDemoServer(transport, { $0.clock = clock }) { client, _ in
      // A body of 30 s: the deadline, passed once its bytes are arriving, ends the call with the head it had.
      try await expectTimeoutWhileTheBodyArrives(on: clock, at: 15) { onProgress in
        try await client.send(
          Endpoint<Data>.get("/download/60000").query("rate", 2000).timeout(15).onDownloadProgress(onProgress))
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aSubSecondTimeoutIsKeptToTheMillisecond(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      // The transport's own timeout is 2 s (the next whole second plus one): a deadline not kept ends there, with the
      // transport's error; libcurl's truncation of a sub-second timeout would end it at once.
      try await expectEndedByItsDeadline(0.5) {
        try await client.send(Endpoint<EmptyBody>.get("/slow").query("ms", 30_000).timeout(0.5))
      }
    }
  }
}
