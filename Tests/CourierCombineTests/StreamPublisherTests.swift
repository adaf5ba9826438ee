import Courier
import CourierCombine
import CourierTestSupport
import Foundation
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A subscriber that asks for values only when the test says so.
final class ReluctantSubscriber: Subscriber, @unchecked Sendable {
  // @unchecked: every field is behind the lock.
  typealias Input = Int
  typealias Failure = Never

  let values = Locked<[Int]>([])
  let finished = Locked(false)
  let subscription = Locked<(any Subscription)?>(nil)

  func receive(subscription: any Subscription) { self.subscription.withLock { $0 = subscription } }
  func receive(_ input: Int) -> Subscribers.Demand {
    values.withLock { $0.append(input) }
    return .none
  }
  func receive(completion: Subscribers.Completion<Never>) { finished.withLock { $0 = true } }
  func request(_ demand: Subscribers.Demand) { subscription.withLock { $0 }?.request(demand) }
}

@Suite(.hangGuard) struct StreamPublisherTests {
  @Test func everyElementIsPublishedInOrderThenTheStreamsEnd() async throws {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    for value in 1...5 { continuation.yield(value) }
    continuation.finish()
    let values = Locked<[Int]>([])
    let finished = Locked(false)
    let cancellable = stream.publisher().sink { _ in
      finished.withLock { $0 = true }
    } receiveValue: { value in
      values.withLock { $0.append(value) }
    }
    try await waitUntil("the publisher finishes") { finished.withLock { $0 } }
    #expect(values.withLock { $0 } == [1, 2, 3, 4, 5])
    cancellable.cancel()
  }

  @Test func elementsAreTakenOnlyAsTheSubscriberAsks() async throws {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    for value in 1...3 { continuation.yield(value) }
    let subscriber = ReluctantSubscriber()
    StreamPublisher(stream).subscribe(subscriber)
    try await Task.sleep(for: .milliseconds(50))
    #expect(subscriber.values.withLock { $0 }.isEmpty, "nothing before a demand")
    subscriber.request(.max(1))
    try await waitUntil("one value") { subscriber.values.withLock { $0.count } == 1 }
    try await Task.sleep(for: .milliseconds(50))
    #expect(subscriber.values.withLock { $0 } == [1], "one value for a demand of one")
    subscriber.request(.max(5))
    try await waitUntil("the rest") { subscriber.values.withLock { $0.count } == 3 }
    #expect(!subscriber.finished.withLock { $0 })
    continuation.yield(4)
    continuation.finish()
    try await waitUntil("the end") { subscriber.finished.withLock { $0 } }
    #expect(subscriber.values.withLock { $0 } == [1, 2, 3, 4])
  }

  @Test func cancellingStopsReadingTheStream() async throws {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let ended = Locked(false)
    continuation.onTermination = { _ in ended.withLock { $0 = true } }
    let values = Locked<[Int]>([])
    let cancellable = stream.publisher().sink { value in values.withLock { $0.append(value) } }
    continuation.yield(1)
    try await waitUntil("a value") { !values.withLock { $0 }.isEmpty }
    cancellable.cancel()
    try await waitUntil("the stream is let go") { ended.withLock { $0 } }
  }
}
