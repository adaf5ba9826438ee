import Courier

/// Tasks in flight, each registered under a key, so that code elsewhere can cancel some or all of them.
final class TaskRegistry<Key: Hashable & Sendable>: Sendable {
  private struct State {
    var tasks: [UInt64: (key: Key, cancel: @Sendable () -> Void)] = [:]
    var counter: UInt64 = 0
  }

  private let state = Locked(State())

  /// Starts `operation` in a task registered under `key` before it can finish; it leaves the registry when done.
  func start<Success: Sendable>(
    under key: Key,
    _ operation: @escaping @Sendable () async -> Success
  ) -> Task<Success, Never> {
    state.withLock { state in
      state.counter &+= 1
      let id = state.counter
      let task = Task {
        defer { self.state.withLock { _ = $0.tasks.removeValue(forKey: id) } }
        return await operation()
      }
      state.tasks[id] = (key, { task.cancel() })
      return task
    }
  }

  /// Cancels the tasks whose key matches.
  func cancel(where matches: (Key) -> Bool = { _ in true }) {
    let cancels = state.withLock { state in state.tasks.values.filter { matches($0.key) }.map(\.cancel) }
    for cancel in cancels { cancel() }
  }

  /// How many tasks are in flight.
  var count: Int { state.withLock { $0.tasks.count } }
}
