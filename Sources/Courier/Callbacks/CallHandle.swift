/// A call started with ``CallbackRequest/execute()``: cancel it, or wait until it and its callbacks are done.
///
/// ```swift
/// let search = client.call(.get("/search", query: ["q": text])).onSuccess { show($0) }.execute()
/// search.cancel()  // the user typed another letter; onCancellation (or onError) runs
/// ```
public struct CallHandle: Sendable, Hashable {
  let task: Task<Void, Never>

  /// Cancels the call. Its `onCancellation` callback (or `onError` when that is not set) still runs.
  public func cancel() {
    task.cancel()
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { task.isCancelled }

  /// Waits until the call is over and its last callback has returned.
  public func finished() async {
    await task.value
  }
}

/// The calls started from one ``CallbackRequest`` and the requests derived from it, so that
/// ``CallbackRequest/cancel()`` can reach them all.
final class CallExecutions: Sendable {
  private let running = Locked<[UInt64: Task<Void, Never>]>([:])
  private let counter = Locked<UInt64>(0)

  /// Starts `operation` in a task registered before it can finish.
  func start(_ operation: @escaping @Sendable () async -> Void) -> CallHandle {
    let id = counter.withLock { counter in
      counter &+= 1
      return counter
    }
    let task = running.withLock { running in
      let task = Task {
        await operation()
        self.running.withLock { _ = $0.removeValue(forKey: id) }
      }
      running[id] = task
      return task
    }
    return CallHandle(task: task)
  }

  /// Cancels every call still running.
  func cancelAll() {
    for task in running.withLock({ Array($0.values) }) { task.cancel() }
  }
}
