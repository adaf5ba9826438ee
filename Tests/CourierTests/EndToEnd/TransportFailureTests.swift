import Courier
import Foundation
import HTTPTypes
import Testing

/// Timeouts, cancellation and unreachable hosts over the real URLSession transport.
@Suite struct TransportFailureTests {
  @Test func timeoutAgainstASlowEndpoint() async throws {
    try await withDemoServer { client, _ in
      let stopwatch = Stopwatch()
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<Empty>.get("/slow").query(["ms": 5000]).timeout(0.5))
      }
      #expect(error?.isTimeout == true)
      #expect(error?.isRetryable == true)
      #expect(stopwatch.elapsed < 4)
    }
  }

  @Test func cancellingTheTaskCancelsTheTransfer() async throws {
    try await withDemoServer { client, _ in
      let stopwatch = Stopwatch()
      let task = Task { try await client.send(Endpoint<Empty>.get("/slow").query(["ms": 5000])) }
      try await pause(milliseconds: 200)
      task.cancel()
      let error = await #expect(throws: CourierError.self) { try await task.value }
      #expect(error?.isCancellation == true)
      #expect(error?.kind == .cancelled)
      #expect(stopwatch.elapsed < 4)
    }
  }

  @Test func alreadyCancelledTaskSendsNothing() async throws {
    try await withDemoServer { client, _ in
      let task = Task {
        try? await pause(milliseconds: 5000)
        return try await client.send(Endpoint<Empty>.get("/products/1"))
      }
      task.cancel()
      let error = await #expect(throws: CourierError.self) { try await task.value }
      #expect(error?.isCancellation == true)
    }
  }

  @Test func connectionRefusedIsNoConnection() async throws {
    // Start and stop a server to get a port nothing listens on.
    var port = 0
    try await withDemoServer { _, url in port = url.port ?? 0 }
    let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)"))
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Empty>.get("/")) }
    #expect(error?.isNoConnection == true, "\(String(describing: error))")
    #expect(error?.isRetryable == true)
  }
}
