import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import Testing

@Suite("sendAll")
struct SendAllTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("returns responses in input order, whatever order they finish in", arguments: TransportKind.allCases)
  func inputOrder(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let ids = [9, 2, 31, 4, 17, 6, 1]
      let responses = try await client.sendAll(ids.map(BatchEndpoints.product), maxConcurrent: 3)
      #expect(responses.map(\.value.id) == ids)
      #expect(responses.allSatisfy { $0.status == .ok })
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("keeps at most maxConcurrent calls in flight", arguments: TransportKind.allCases)
  func concurrencyLimit(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let endpoints = Array(repeating: BatchEndpoints.probe(milliseconds: 150), count: 9)
      let reports = try await client.sendAll(endpoints, maxConcurrent: 3).map(\.value)
      let most = reports.map(\.maxInFlight).max() ?? 0
      #expect(reports.allSatisfy { $0.inFlight <= 3 })
      #expect(most <= 3)
      #expect(most >= 2, "calls overlapped")

      let sequential = try await client.sendAll(Array(endpoints.prefix(3)), maxConcurrent: 1).map(\.value)
      #expect(sequential.map(\.inFlight) == [1, 1, 1])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("reports progress from 0 to total, once per finished call", arguments: TransportKind.allCases)
  func progress(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let log = Recorder<BatchProgress>()
      let endpoints = (1...6).map(BatchEndpoints.product)
      _ = try await client.sendAll(endpoints, maxConcurrent: 2) { log.append($0) }
      let updates = log.values
      #expect(updates.map(\.completed) == [0, 1, 2, 3, 4, 5, 6])
      #expect(updates.allSatisfy { $0.total == 6 && $0.failed == 0 })
      #expect(updates.first?.fractionCompleted == 0)
      #expect(updates.last?.isFinished == true)
      #expect(updates.last?.fractionCompleted == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("continueOnError returns a result per endpoint, failures included", arguments: TransportKind.allCases)
  func continueOnError(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let ids = [1, 999, 3, 998, 5]
      let log = Recorder<BatchProgress>()
      let results = try await client.sendAll(
        ids.map(BatchEndpoints.product), maxConcurrent: 2, continueOnError: true, progress: { log.append($0) })
      #expect(results.count == 5)
      #expect(try results[0].get().value.id == 1)
      #expect(try results[2].get().value.id == 3)
      #expect(try results[4].get().value.id == 5)
      for index in [1, 3] {
        guard case .failure(let error) = results[index] else {
          Issue.record("expected a failure at \(index)")
          continue
        }
        #expect(error.status == .notFound)
        #expect(error.request?.path == "/products/\(ids[index])")
      }
      #expect(log.values.last == BatchProgress(completed: 5, failed: 2, total: 5))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("without continueOnError the first failure is thrown and the rest cancelled", arguments: TransportKind.allCases)
  func failFast(kind: TransportKind) async throws {
    let endings = CallEndings()
    try await withDemoServer(kind, { $0.eventHandler = endings.handler }) { client, _ in
      let endpoints = [
        BatchEndpoints.slow(milliseconds: 30_000), BatchEndpoints.status(500),
        BatchEndpoints.slow(milliseconds: 30_000),
      ]
      let error = await #expect(throws: CourierError.self) {
        try await client.sendAll(endpoints, maxConcurrent: 3, continueOnError: false)
      }
      #expect(error?.status == .internalServerError)
      // Awaited instead, the slow calls would have ended after the server's 30 s with successes.
      let ended = try await endings.wait(for: 3)
      #expect(ended.filter { $0 == .cancelled }.count == 2, "\(ended)")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("without continueOnError no call starts after the first failure", arguments: TransportKind.allCases)
  func failFastStartsNothingMore(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      // The first call reaches the server but fails (it expects 201 and gets 200); the others never start.
      let endpoints = [
        BatchEndpoints.counted("fails").expect(.created), BatchEndpoints.counted("never"),
        BatchEndpoints.counted("never"),
      ]
      let error = await #expect(throws: CourierError.self) { try await client.sendAll(endpoints, maxConcurrent: 1) }
      #expect(error?.kind == .unacceptableStatus)
      let failed = try await client.value(BatchEndpoints.hits("fails"))
      let never = try await client.value(BatchEndpoints.hits("never"))
      #expect(failed.hits == 1)
      #expect(never.hits == 0, "nothing was started after the failure")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("an empty list returns at once with a finished progress", arguments: [TransportKind.urlSession])
  func empty(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let log = Recorder<BatchProgress>()
      let results = try await client.sendAll([Endpoint<Product>](), maxConcurrent: 2) { log.append($0) }
      #expect(results.isEmpty)
      #expect(log.values == [BatchProgress(completed: 0, failed: 0, total: 0)])
      #expect(log.values.first?.isFinished == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("cancelling the calling task throws a cancellation error promptly", arguments: TransportKind.allCases)
  func cancellation(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let endpoints = Array(repeating: BatchEndpoints.slow(milliseconds: 30_000), count: 4)
      let batch = Task { try await client.sendAll(endpoints, maxConcurrent: 2, continueOnError: true) }
      try await Task.sleep(for: .milliseconds(200))
      batch.cancel()
      let error = await #expect(throws: CourierError.self) { try await batch.value }
      #expect(error?.isCancellation == true)
    }
  }
}
