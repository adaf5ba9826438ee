import Courier
import Foundation
import X509

extension TransportConformance {
  /// Servers whose certificates fail a check, made at test time: each fails at once as `.tls`, with a detail that
  /// names the host and the check in the words every transport uses.
  ///
  /// A certificate's name and dates are checked only once its chain is trusted, so those two cases need a transport
  /// that trusts the test's root (see ``check(_:over:timingSlack:trustingCustomRoots:)``); over a transport that
  /// cannot trust custom roots they check that the unknown root is reported instead.
  static var tlsCases: [TransportConformanceCase] {
    [
      TransportConformanceCase("A certificate issued by an unknown root fails at once as .tls, naming the check") {
        run in
        try await run.expectTLSFailure(of: TestAuthority().issue(), check: "not trusted", "unknown root")
      },
      TransportConformanceCase("A self-signed certificate fails at once as .tls, naming the check") { run in
        try await run.expectTLSFailure(of: TestAuthority.selfSigned(), check: "not trusted", "self-signed")
      },
      TransportConformanceCase("An expired certificate fails at once as .tls, naming the check") { run in
        let authority = try TestAuthority()
        let expired = try authority.issue(
          notBefore: Date().addingTimeInterval(-7200), notAfter: Date().addingTimeInterval(-3600))
        if let trusting = try await run.transport(trusting: authority) {
          try await run.expectTLSFailure(of: expired, over: trusting, check: "not trusted", "expired")
        } else {
          try await run.expectTLSFailure(of: expired, check: "not trusted", "unknown root")
        }
      },
      TransportConformanceCase("A certificate for another host fails at once as .tls, naming the check") { run in
        let authority = try TestAuthority()
        let elsewhere = try authority.issue(for: [.dnsName("api.example.com")])
        if let trusting = try await run.transport(trusting: authority) {
          try await run.expectTLSFailure(of: elsewhere, over: trusting, check: "is not valid for 127.0.0.1")
        } else {
          try await run.expectTLSFailure(of: elsewhere, check: "not trusted", "unknown root")
        }
      },
    ]
  }
}

extension ConformanceRun {
  /// Sends `GET /hello` over `transport` (the one under test by default) to a TLS server presenting `issued`, and
  /// expects a `.tls` error at once (within 1 s and the slack) whose detail names 127.0.0.1 and contains every word of
  /// `check`.
  func expectTLSFailure(
    of issued: TestAuthority.Issued, over transport: (any HTTPTransport)? = nil, check: String...
  ) async throws {
    let server = try await tlsServer(issued)
    let client = APIClient(baseURL: server.baseURL) { $0.transport = transport ?? self.transport }
    let (error, seconds) = try await timed {
      try await self.error { try await client.send(Endpoint<Data>.get("/hello").timeout(30).retries(false)) }
    }
    try expect(error.kind == .tls, "expected .tls, got \(error)")
    try expect(seconds < 1 + slack, "the failure came after \(seconds) s, not at once")
    try expect(error.detail.contains("127.0.0.1"), "the detail does not name the host: \(error.detail)")
    for words in check {
      try expect(error.detail.contains(words), "the detail does not say \"\(words)\": \(error.detail)")
    }
    try expect(server.requestCount == 0, "a request reached the server")
  }
}
