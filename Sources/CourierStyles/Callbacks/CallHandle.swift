import Courier

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
