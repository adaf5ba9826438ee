import Courier
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// One subscription to a ``SendPublisher``: starts the call's task on the first demand, delivers its outcome once,
/// and cancels the task when the subscriber cancels.
final class SendSubscription<Downstream: Subscriber>: Subscription, CallRunner, @unchecked Sendable
where Downstream.Input: Sendable, Downstream.Failure == CourierError {
  // @unchecked: `state` is only read and written under its lock, and the downstream is called at most once per
  // event, after the state says so, as Combine requires.
  private enum State {
    case waiting(Downstream)
    case running(Downstream, Task<Void, Never>?)
    case finished
  }

  private let state: Locked<State>
  private let operation: @Sendable () async throws -> Downstream.Input

  init(downstream: Downstream, operation: @escaping @Sendable () async throws -> Downstream.Input) {
    state = Locked(.waiting(downstream))
    self.operation = operation
  }

  func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    let started: Bool = state.withLock { state in
      guard case .waiting(let downstream) = state else { return false }
      state = .running(downstream, nil)
      return true
    }
    guard started else { return }
    // The task runs the call through a non-generic existential, so it captures no metatype of `Downstream`.
    let runner: any CallRunner = self
    let task = Task { await runner.run() }
    let keep: Bool = state.withLock { state in
      guard case .running(let downstream, nil) = state else { return false }
      state = .running(downstream, task)
      return true
    }
    if !keep { task.cancel() }  // Cancelled (or already finished) while the task was being made.
  }

  func cancel() {
    let task: Task<Void, Never>? = state.withLock { state in
      defer { state = .finished }
      if case .running(_, let task) = state { return task }
      return nil
    }
    task?.cancel()
  }

  /// Runs the call and delivers its outcome.
  func run() async {
    let result: Result<Downstream.Input, CourierError>
    do {
      result = .success(try await operation())
    } catch {
      result = .failure(CourierError(publishing: error))
    }
    deliver(result)
  }

  private func deliver(_ result: Result<Downstream.Input, CourierError>) {
    let downstream: Downstream? = state.withLock { state in
      guard case .running(let downstream, _) = state else { return nil }
      state = .finished
      return downstream
    }
    guard let downstream else { return }
    switch result {
    case .success(let value):
      _ = downstream.receive(value)
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(error))
    }
  }
}

extension CourierError {
  /// `error` as a `CourierError`: as it is, as `cancelled` for a `CancellationError`, else as `transport`.
  init(publishing error: any Error) {
    if let error = error as? CourierError {
      self = error
    } else if error is CancellationError {
      self.init(.cancelled, "The call was cancelled", underlyingError: error)
    } else {
      self.init(.transport, "\(error)", underlyingError: error)
    }
  }
}

/// What a subscription's task runs: the call, then the delivery of its outcome.
protocol CallRunner: Sendable {
  func run() async
}
