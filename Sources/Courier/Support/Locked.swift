import Foundation

/// A value guarded by a lock, for the few places where state is shared with callbacks that are not async
/// (URLSession delegates, cancellation handlers). `Mutex` needs macOS 15 / iOS 18, above our deployment targets.
package final class Locked<Value>: @unchecked Sendable {  // @unchecked: every access to `value` goes through `lock`.
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) { self.value = value }

  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
