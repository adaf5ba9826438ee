import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// Timeouts, cancellation and unreachable hosts over each real transport.
@Suite struct TransportFailureTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func timeoutAgainstASlowEndpoint(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<EmptyBody>.get("/slow").query(["ms": 30_000]).timeout(0.5))
      }
      #expect(error?.isTimeout == true)
      #expect(error?.isRetryable == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func cancellingTheTaskCancelsTheTransfer(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let task = Task { try await client.send(Endpoint<EmptyBody>.get("/slow").query(["ms": 30_000])) }
      try await Task.sleep(for: .milliseconds(200))
      task.cancel()
      let error = await #expect(throws: CourierError.self) { try await task.value }
      #expect(error?.isCancellation == true)
      #expect(error?.kind == .cancelled)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func alreadyCancelledTaskSendsNothing(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let task = Task {
        try? await Task.sleep(for: .milliseconds(5000))
        return try await client.send(Endpoint<EmptyBody>.get("/products/1"))
      }
      task.cancel()
      let error = await #expect(throws: CourierError.self) { try await task.value }
      #expect(error?.isCancellation == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func connectionRefusedIsNoConnection(_ transport: TransportKind) async throws {
    // Start and stop a server to get a port nothing listens on.
    var port = 0
    try await withDemoServer(transport) { _, server in port = server.baseURL.port ?? 0 }
    try await withTransport(transport) { transport in
      let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")) { $0.transport = transport }
      let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/")) }
      #expect(error?.isNoConnection == true, "\(String(describing: error))")
      #expect(error?.isRetryable == true)
    }
  }
}
