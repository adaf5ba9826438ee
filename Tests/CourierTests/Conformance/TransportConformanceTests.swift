import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

/// Every transport in the package passes every case of ``TransportConformance``.
///
/// The cases run one at a time, but beside hundreds of other tests on a small machine, so timed events get a second
/// of slack here; `COURIER_TIMING_SLACK_MS=100` holds them to the 100 ms Courier promises (run the suite alone).
@Suite(.serialized, .timeLimit(.minutes(3))) struct TransportConformanceTests {
  static let slack = Duration.milliseconds(
    ProcessInfo.processInfo.environment["COURIER_TIMING_SLACK_MS"].flatMap(Int.init) ?? 1000)

  @Test(arguments: TransportKind.allCases, TransportConformance.cases)
  func conforms(_ kind: TransportKind, _ conformanceCase: TransportConformanceCase) async throws {
    try await withTransport(kind) { transport in
      try await TransportConformance.check(conformanceCase, over: transport, timingSlack: Self.slack)
    }
  }

  @Test(arguments: TransportConformance.offlineCases)
  func theStubTransportRefusesWhatMustNotBeSent(_ conformanceCase: TransportConformanceCase) async throws {
    try await TransportConformance.check(conformanceCase, over: StubTransport(), timingSlack: Self.slack)
  }
}
