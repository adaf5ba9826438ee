import Courier
import CourierCombine
import CourierStyles
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

@Suite("Combine publishers against the demo API")
struct PublisherTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("publisher(for:) delivers the decoded value, then finishes")
  func value() async throws {
    try await withDemoServer(.urlSession) { client, _ in
      let received = await receiveAll(client.publisher(for: Endpoint<Product>.get("/products/3")))
      #expect(received.values.map(\.id) == [3])
      #expect(received.error == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("responsePublisher(for:) delivers the whole response")
  func response() async throws {
    try await withDemoServer(.urlSession) { client, _ in
      let endpoint = Endpoint<EmptyBody>.get("/products", query: ["limit": 5])
      let received = await receiveAll(client.responsePublisher(for: endpoint))
      let response = try #require(received.values.first)
      #expect(response.status == .ok)
      #expect(response.headerFields[HTTPField.Name("Link")!]?.contains(#"rel="next""#) == true)
      #expect(!response.data.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a 404 fails with a typed CourierError that keeps the server's message")
  func notFound() async throws {
    try await withDemoServer(.urlSession) { client, _ in
      let received = await receiveAll(client.publisher(for: Endpoint<Product>.get("/products/999")))
      #expect(received.values.isEmpty)
      let error = try #require(received.error)
      #expect(error.kind == .unacceptableStatus)
      #expect(error.status == .notFound)
      #expect(error.serverError(as: DemoError.self)?.error == "Product 999 not found")
      #expect(error.request?.path == "/products/999")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("operators compose: map and catch see the typed error")
  func operators() async throws {
    try await withDemoServer(.urlSession) { client, _ in
      let recovered = client.publisher(for: Endpoint<Product>.get("/products/999"))
        .map(\.name)
        .catch { error in Just("fallback for \(error.status?.code ?? 0)").setFailureType(to: CourierError.self) }
        .eraseToAnyPublisher()
      let received = await receiveAll(recovered)
      #expect(received.values == ["fallback for 404"])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("nothing is sent before a subscription, and each subscription sends once")
  func deferredUntilSubscribed() async throws {
    try await withDemoServer(.urlSession) { client, _ in
      let publisher = client.publisher(for: Endpoint<CountedHits>.get("/counted/combine"))
      try await Task.sleep(for: .milliseconds(200))
      let hitsBefore = try await client.value(Endpoint<CountedHits>.get("/counted/combine/hits"))
      #expect(hitsBefore.hits == 0)

      let first = await receiveAll(publisher)
      let second = await receiveAll(publisher)
      #expect(first.values.map(\.hits) == [1])
      #expect(second.values.map(\.hits) == [2])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("cancelling the subscription cancels the request's task and transfer")
  func cancellation() async throws {
    let finished = Locked<[CourierError?]>([])
    try await withDemoServer(
      .urlSession,
      { configuration in
        configuration.eventHandler = { event in
          if case .finished(_, _, _, _, _, _, let error) = event { finished.withLock { $0.append(error) } }
        }
      }
    ) { client, _ in
      let delivered = Locked<[String]>([])
      let cancellable = client.publisher(for: Endpoint<EmptyBody>.get("/slow", query: ["ms": 30_000]))
        .sink { completion in
          delivered.withLock { $0.append("completion \(completion)") }
        } receiveValue: { _ in
          delivered.withLock { $0.append("value") }
        }
      try await Task.sleep(for: .milliseconds(200))
      #expect(finished.withLock { $0.isEmpty }, "the request is in flight")

      cancellable.cancel()
      // Not cancelled, the call would end after the server's 30 s without an error: the errors below tell.
      try await waitUntil("the call ended") { !finished.withLock { $0.isEmpty } }
      let errors = finished.withLock { $0 }
      #expect(errors.count == 1)
      #expect(errors.first??.isCancellation == true)
      try await Task.sleep(for: .milliseconds(50))
      #expect(delivered.withLock { $0 }.isEmpty, "a cancelled subscriber receives nothing")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("SendPublisher publishes any async Courier work, such as a batch")
  func customWork() async throws {
    try await withDemoServer(.urlSession) { client, _ in
      let pair = SendPublisher {
        try await client.values(Endpoint<Product>.get("/products/1"), Endpoint<Product>.get("/products/2"))
      }
      let received = await receiveAll(pair.eraseToAnyPublisher())
      #expect(received.values.map { [$0.0.id, $0.1.id] } == [[1, 2]])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("an EndpointConvertible value can be published")
  func endpointConvertible() async throws {
    try await withDemoServer(.urlSession) { client, _ in
      let received = await receiveAll(client.publisher(for: ProductRoute.product(id: 5), as: Product.self))
      #expect(received.values.map(\.id) == [5])
    }
  }
}

/// A tiny router in the enum style.
@available(macOS 14, iOS 17, tvOS 17, *)
private enum ProductRoute: EndpointConvertible {
  case product(id: Int)

  var path: String {
    switch self {
    case .product(let id): "/products/\(id)"
    }
  }
}
