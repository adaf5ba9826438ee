import Foundation

/// A value guarded by a lock, for state shared with code that is not async (cancellation handlers, observers).
/// `Mutex` needs macOS 15 / iOS 18, above our deployment targets.
final class Locked<Value>: @unchecked Sendable {  // @unchecked: every access to `value` goes through `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
