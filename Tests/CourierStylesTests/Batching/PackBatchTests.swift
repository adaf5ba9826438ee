import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import Testing

@Suite("Batching with parameter packs")
struct PackBatchTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("send(a, b, c) returns each value with its own type, in argument order", arguments: TransportKind.allCases)
  func heterogeneousTuple(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let (product, page, hits) = try await client.values(
        BatchEndpoints.product(7),
        Endpoint<ProductPage>.get("/products", query: ["limit": 3, "page": 2]),
        BatchEndpoints.counted("pack")
      )
      #expect(product.id == 7)
      #expect(page.page == 2)
      #expect(page.items.map(\.id) == [4, 5, 6])
      #expect(hits == CountedHits(key: "pack", hits: 1))

      // One endpoint still goes to send(_:) and returns the whole response.
      let single: APIResponse<Product> = try await client.send(BatchEndpoints.product(7))
      #expect(single.status == .ok)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("two endpoints and five endpoints both work", arguments: TransportKind.allCases)
  func anyCount(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let (first, second) = try await client.values(BatchEndpoints.product(1), BatchEndpoints.product(2))
      #expect([first.id, second.id] as [Int] == [1, 2])
      let five = try await client.values(
        BatchEndpoints.product(5), BatchEndpoints.product(4), BatchEndpoints.product(3), BatchEndpoints.product(2),
        BatchEndpoints.product(1), mode: .concurrent)
      #expect([five.0.id, five.1.id, five.2.id, five.3.id, five.4.id] as [Int] == [5, 4, 3, 2, 1])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("sequential mode sends one call at a time", arguments: TransportKind.allCases)
  func sequentialIsOneAtATime(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let (a, b, c) = try await client.values(
        BatchEndpoints.probe(milliseconds: 80), BatchEndpoints.probe(milliseconds: 80),
        BatchEndpoints.probe(milliseconds: 80))
      #expect([a.inFlight, b.inFlight, c.inFlight] as [Int] == [1, 1, 1])
      #expect(c.maxInFlight == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("concurrent mode has every call in flight at once", arguments: TransportKind.allCases)
  func concurrentOverlaps(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let (a, b, c) = try await client.values(
        BatchEndpoints.probe(milliseconds: 600), BatchEndpoints.probe(milliseconds: 600),
        BatchEndpoints.probe(milliseconds: 600), mode: .concurrent)
      #expect(max(a.maxInFlight, b.maxInFlight, c.maxInFlight) == 3)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("sequential mode stops at the first failure and sends nothing after it", arguments: TransportKind.allCases)
  func sequentialStopsAtFailure(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.values(
          BatchEndpoints.counted("before"), BatchEndpoints.status(404), BatchEndpoints.counted("after"))
      }
      #expect(error?.status == .notFound)
      let before = try await client.value(BatchEndpoints.hits("before"))
      let after = try await client.value(BatchEndpoints.hits("after"))
      #expect(before.hits == 1)
      #expect(after.hits == 0, "nothing was sent after the failure")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "concurrent mode throws the first failure and cancels the calls still in flight", arguments: TransportKind.allCases)
  @available(macOS 14, iOS 17, tvOS 17, *)
  func concurrentFailureCancelsOthers(kind: TransportKind) async throws {
    let endings = CallEndings()
    try await withDemoServer(kind, { $0.eventHandler = endings.handler }) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.values(
          BatchEndpoints.slow(milliseconds: 30_000), BatchEndpoints.status(503),
          BatchEndpoints.slow(milliseconds: 30_000),
          mode: .concurrent)
      }
      #expect(error?.status == .serviceUnavailable)
      // Awaited instead, the slow calls would have ended after the server's 30 s with successes.
      let ended = try await endings.wait(for: 3)
      #expect(ended.filter { $0 == .cancelled }.count == 2, "\(ended)")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("cancelling the calling task cancels a concurrent batch", arguments: TransportKind.allCases)
  func cancellation(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let batch = Task {
        try await client.values(
          BatchEndpoints.slow(milliseconds: 30_000), BatchEndpoints.slow(milliseconds: 30_000), mode: .concurrent)
      }
      try await Task.sleep(for: .milliseconds(200))
      batch.cancel()
      let error = await #expect(throws: CourierError.self) { try await batch.value }
      #expect(error?.isCancellation == true)
    }
  }
}
