import Courier

extension Locked where Value: RangeReplaceableCollection {
  /// An empty collection to record values in.
  package init() {
    self.init(Value())
  }

  /// Records `element`.
  package func append(_ element: Value.Element) {
    withLock { $0.append(element) }
  }

  /// What was recorded, in order.
  package var values: Value { withLock { $0 } }
}

/// Collects values handed to a `@Sendable` callback, for assertions afterwards.
package typealias Recorder<Value> = Locked<[Value]>
