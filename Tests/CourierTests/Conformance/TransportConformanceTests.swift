import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// Every transport in the package passes every case of ``TransportConformance``.
///
/// The cases run one at a time, but beside hundreds of other tests on a small machine, so timed events get a second
/// of slack here besides the stalls of the whole process that the cases measure themselves: pinned to one core beside
/// a CPU hog, the other tests keep Swift's shared pool busy, and a call's end waits for a thread of it (an idle timeout
/// of 0.5 s was seen to end the call after 0.62–0.86 s, in every one of the kit's five runs). The kit cannot yet tell
/// that from a pool the transport itself blocks. `COURIER_TIMING_SLACK_MS=100` holds the cases to the 100 ms Courier
/// promises (run the suite alone).
@Suite(.serialized, .hangGuard) struct TransportConformanceTests {
  static let slack = Duration.milliseconds(
    ProcessInfo.processInfo.environment["COURIER_TIMING_SLACK_MS"].flatMap(Int.init) ?? 1000)

  @Test(arguments: TransportKind.allCases, TransportConformance.cases)
  func conforms(_ kind: TransportKind, _ conformanceCase: TransportConformanceCase) async throws {
    try await withTransport(kind) { transport in
      if kind == .urlSession, conformanceCase.name.hasPrefix(Self.urlSessionCannotTell) {
        // URLSession reports nothing between resuming a task without a body and its response head, so such a request
        // counts as sent after 0.1 s with the session (`URLSessionTransport.sentGrace`), connection or not.
        await withKnownIssue("URLSession does not report when a request without a body goes out") {
          try await TransportConformance.check(conformanceCase, over: transport, timingSlack: Self.slack)
        }
        return
      }
      try await TransportConformance.check(conformanceCase, over: transport, timingSlack: Self.slack) { policy in
        try kind.makeTransport(trusting: policy)
      }
    }
  }

  /// The case URLSession cannot pass.
  static let urlSessionCannotTell = "The start handler does not run while the server has not accepted"

  /// A call with a start handler or an event handler asks the transport to report when its request went out;
  /// AsyncHTTPClient then sends a request without a streamed body through its delegate API. Every case holds there
  /// too.
  @Test(arguments: TransportConformance.cases)
  func asyncHTTPClientConformsWhenItReportsTheRequestSent(_ conformanceCase: TransportConformanceCase) async throws {
    try await withTransport(.asyncHTTPClient) { transport in
      try await TransportConformance.check(
        conformanceCase, over: ReportingRequestSent(transport), timingSlack: Self.slack
      ) { policy in
        ReportingRequestSent(try TransportKind.asyncHTTPClient.makeTransport(trusting: policy))
      }
    }
  }

  @Test(arguments: TransportConformance.offlineCases)
  func theStubTransportRefusesWhatMustNotBeSent(_ conformanceCase: TransportConformanceCase) async throws {
    try await TransportConformance.check(conformanceCase, over: StubTransport(), timingSlack: Self.slack)
  }
}

/// A transport that always asks the one it wraps to report when a request went out.
struct ReportingRequestSent: HTTPTransport {
  let base: any HTTPTransport

  init(_ base: any HTTPTransport) { self.base = base }

  var supportedContentEncodings: [String] { base.supportedContentEncodings }

  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    var options = options
    if options.requestSent == nil { options.requestSent = {} }
    return try await base.send(request, body: body, options: options)
  }
}
