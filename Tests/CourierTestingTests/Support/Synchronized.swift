import Foundation

/// A lock for test state.
final class Synchronized<Value: Sendable>: @unchecked Sendable {  // @unchecked: `value` is only used under `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
