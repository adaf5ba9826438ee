import Foundation

/// A value guarded by a lock, for state the test doubles share between concurrent calls.
///
/// Courier's own lock is internal to Courier; `Mutex` needs macOS 15 / iOS 18, above the deployment targets.
final class Synchronized<Value: Sendable>: @unchecked Sendable {  // @unchecked: every access to `value` holds `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
