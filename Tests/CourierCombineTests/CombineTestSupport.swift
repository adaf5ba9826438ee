import Courier
import CourierTestSupport
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// Everything a subscriber saw.
struct Received<Output> {
  var values: [Output]
  var completion: Subscribers.Completion<CourierError>

  var error: CourierError? {
    if case .failure(let error) = completion { return error }
    return nil
  }
}

/// Subscribes with `sink` and waits for the publisher to complete.
func receiveAll<Output: Sendable>(_ publisher: AnyPublisher<Output, CourierError>) async -> Received<Output> {
  let values = Locked<[Output]>([])
  let subscription = Locked<AnyCancellable?>(nil)
  let completion = await withCheckedContinuation {
    (continuation: CheckedContinuation<Subscribers.Completion<CourierError>, Never>) in
    let cancellable = publisher.sink { completion in
      continuation.resume(returning: completion)
    } receiveValue: { value in
      values.withLock { $0.append(value) }
    }
    subscription.withLock { $0 = cancellable }
  }
  subscription.withLock { $0 = nil }
  return Received(values: values.withLock { $0 }, completion: completion)
}
