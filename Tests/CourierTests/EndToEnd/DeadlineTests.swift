import Courier
import CourierTestSupport
import Foundation
import Testing

/// One deadline per call, over the head and the whole body, on every transport.
///
/// Upper bounds are loose, and a server's waits long: the whole suite shares two cores and a test can be starved for
/// seconds. Run alone, the 0.5 s deadline fires after 0.51 s on both transports (the transport conformance suite holds
/// deadlines to the 100 ms Courier promises).
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
      let stopwatch = Stopwatch()
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<Empty>.get("/slow").query("ms", 30_000).timeout(0.5))
      }
      #expect(error?.kind == .timeout)
      #expect(stopwatch.elapsed >= 0.45, "libcurl truncates sub-second timeouts: \(stopwatch.elapsed) s")
      #expect(stopwatch.elapsed < 10, "\(stopwatch.elapsed) s")
    }
  }
}
