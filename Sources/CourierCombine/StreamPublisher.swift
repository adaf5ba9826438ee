import Courier
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A publisher of the elements of an `AsyncStream`, for code written with Combine: an outbox's events or its pending
/// count, a client's events, any stream Courier gives.
///
/// ```swift
/// await outbox.pendingCounts().publisher()
///   .receive(on: DispatchQueue.main)
///   .sink { count in self.badge = count == 0 ? nil : "\(count) changes waiting" }
///   .store(in: &cancellables)
/// ```
///
/// The stream is read as the subscriber asks for values — no element is taken from it before there is demand — and
/// the publisher finishes when the stream does. An `AsyncStream` can be read once: one subscriber per publisher.
/// Cancelling the subscription stops reading the stream.
public struct StreamPublisher<Output: Sendable>: Publisher, Sendable {
  /// A stream never fails.
  public typealias Failure = Never

  private let stream: AsyncStream<Output>

  /// A publisher of `stream`'s elements.
  public init(_ stream: AsyncStream<Output>) {
    self.stream = stream
  }

  /// Attaches `subscriber`; the stream is read once it asks for values.
  public func receive<Downstream: Subscriber>(subscriber: Downstream)
  where Downstream.Input == Output, Downstream.Failure == Never {
    subscriber.receive(subscription: StreamSubscription(downstream: subscriber, stream: stream))
  }
}

extension AsyncStream where Element: Sendable {
  /// A publisher of this stream's elements (see ``StreamPublisher``).
  public func publisher() -> AnyPublisher<Element, Never> {
    StreamPublisher(self).eraseToAnyPublisher()
  }
}

/// One subscription to a ``StreamPublisher``: a task reads the stream while the subscriber has demand.
final class StreamSubscription<Downstream: Subscriber>: Subscription, StreamReader, @unchecked Sendable
where Downstream.Input: Sendable, Downstream.Failure == Never {
  // @unchecked: `state` is only read and written under its lock; the downstream is called from the reading task
  // only, one element at a time, as Combine requires.
  private struct State {
    var downstream: Downstream?
    var demand = Subscribers.Demand.none
    var waiter: CheckedContinuation<Void, Never>?
    var task: Task<Void, Never>?
    var started = false
  }

  private let state: Locked<State>
  private let stream: AsyncStream<Downstream.Input>

  init(downstream: Downstream, stream: AsyncStream<Downstream.Input>) {
    state = Locked(State(downstream: downstream))
    self.stream = stream
  }

  func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    let (start, waiter): (Bool, CheckedContinuation<Void, Never>?) = state.withLock { state in
      guard state.downstream != nil else { return (false, nil) }
      state.demand += demand
      defer { state.waiter = nil }
      let start = !state.started
      state.started = true
      return (start, state.waiter)
    }
    waiter?.resume()
    guard start else { return }
    let reader: any StreamReader = self
    let task = Task { await reader.read() }
    let keep: Bool = state.withLock { state in
      guard state.downstream != nil else { return false }
      state.task = task
      return true
    }
    if !keep { task.cancel() }
  }

  func cancel() {
    let (task, waiter) = state.withLock { state in
      defer {
        state.downstream = nil
        state.waiter = nil
      }
      return (state.task, state.waiter)
    }
    task?.cancel()
    waiter?.resume()
  }

  func read() async {
    var iterator = stream.makeAsyncIterator()
    while await hasDemand(), let element = await iterator.next() {
      guard let downstream = state.withLock({ $0.downstream }) else { return }
      let more = downstream.receive(element)
      state.withLock { state in
        state.demand -= 1
        state.demand += more
      }
    }
    let downstream: Downstream? = state.withLock { state in
      defer { state.downstream = nil }
      return state.downstream
    }
    downstream?.receive(completion: .finished)
  }

  /// Waits until the subscriber wants another element; false once it cancelled.
  private func hasDemand() async -> Bool {
    while true {
      let ready: Bool? = state.withLock { state in
        guard state.downstream != nil else { return false }
        return state.demand > .none ? true : nil
      }
      if let ready { return ready }
      await withCheckedContinuation { continuation in
        let resumeNow: Bool = state.withLock { state in
          guard state.downstream != nil, state.demand == .none else { return true }
          state.waiter = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    }
  }
}

/// What a stream subscription's task runs, without the subscriber's generic type.
protocol StreamReader: Sendable {
  func read() async
}
