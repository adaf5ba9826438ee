import Courier
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A publisher that runs one async Courier call per subscription and publishes its result: one value and
/// `.finished`, or a `CourierError` failure.
///
/// Nothing is sent until a subscriber asks for a value (`sink` asks at once), each subscriber gets its own call,
/// and cancelling the subscription cancels the call's task and so its transfer. Values arrive on whatever thread
/// the call finished on; add `.receive(on: DispatchQueue.main)` before touching UI.
///
/// You rarely name this type: ``Courier/APIClient/publisher(for:)`` and ``Courier/APIClient/responsePublisher(for:)``
/// return it erased to `AnyPublisher`. Make one yourself to publish any async Courier work:
///
/// ```swift
/// let pair = SendPublisher { try await client.values(userEndpoint, postsEndpoint, mode: .concurrent) }
/// ```
public struct SendPublisher<Output: Sendable>: Publisher, Sendable {
  /// Courier calls fail with `CourierError` only.
  public typealias Failure = CourierError

  private let operation: @Sendable () async throws -> Output

  /// Creates a publisher that runs `operation` for each subscriber. An error that is not a `CourierError` is
  /// wrapped as one of kind `transport`, and cancellation as one of kind `cancelled`.
  public init(_ operation: @escaping @Sendable () async throws -> Output) {
    self.operation = operation
  }

  /// Attaches `subscriber`; the call starts when it requests a value.
  public func receive<Downstream: Subscriber>(subscriber: Downstream)
  where Downstream.Input == Output, Downstream.Failure == CourierError {
    subscriber.receive(subscription: SendSubscription(downstream: subscriber, operation: operation))
  }
}
