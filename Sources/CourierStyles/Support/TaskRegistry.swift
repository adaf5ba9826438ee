import Foundation

/// Tasks in flight, each registered under a key, so that code elsewhere can cancel some or all of them.
///
/// `Mutex` needs macOS 15 / iOS 18, above our deployment targets, hence a lock; it is `@unchecked Sendable`
/// because its state is only used under `lock`.
final class TaskRegistry<Key: Hashable & Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var tasks: [UInt64: (key: Key, cancel: @Sendable () -> Void)] = [:]
  private var counter: UInt64 = 0

  /// Starts `operation` in a task registered under `key` before it can finish; it leaves the registry when done.
  func start<Success: Sendable>(
    under key: Key,
    _ operation: @escaping @Sendable () async -> Success
  ) -> Task<Success, Never> {
    lock.lock()
    defer { lock.unlock() }
    counter &+= 1
    let id = counter
    let task = Task {
      defer { self.remove(id) }
      return await operation()
    }
    tasks[id] = (key, { task.cancel() })
    return task
  }

  /// Cancels the tasks whose key matches.
  func cancel(where matches: (Key) -> Bool = { _ in true }) {
    lock.lock()
    let cancels = tasks.values.filter { matches($0.key) }.map(\.cancel)
    lock.unlock()
    for cancel in cancels { cancel() }
  }

  /// How many tasks are in flight.
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return tasks.count
  }

  private func remove(_ id: UInt64) {
    lock.lock()
    tasks[id] = nil
    lock.unlock()
  }
}
