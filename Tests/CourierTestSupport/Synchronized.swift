import Foundation

/// The tests' one lock: a value shared with callbacks that are not async, only touched under the lock.
public final class Synchronized<Value>: @unchecked Sendable {  // @unchecked: `value` is only used under `lock`.
  private let lock = NSLock()
  private var value: Value

  /// Guards `value`.
  public init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, under the lock.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

extension Synchronized where Value: RangeReplaceableCollection {
  /// An empty collection to record values in.
  public convenience init() {
    self.init(Value())
  }

  /// Records `element`.
  public func append(_ element: Value.Element) {
    withLock { $0.append(element) }
  }

  /// What was recorded, in order.
  public var values: Value { withLock { $0 } }
}
