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

/// Records how each call of a client ended, from its `.finished` events: `nil` for a success, the error's kind
/// otherwise. Install ``handler`` as the client's `eventHandler`.
public final class CallEndings: Sendable {
  private let endings = Locked<[CourierError.Kind?]>([])

  /// A recorder with nothing recorded.
  public init() {}

  /// The event handler that records.
  public var handler: @Sendable (CourierEvent) -> Void {
    { [endings] event in
      if case .finished(_, _, _, _, _, _, let error) = event { endings.withLock { $0.append(error?.kind) } }
    }
  }

  /// How the calls ended so far, in order.
  public var all: [CourierError.Kind?] { endings.withLock { $0 } }

  /// Waits until `count` calls ended, and returns how.
  public func wait(for count: Int) async throws -> [CourierError.Kind?] {
    try await waitUntil("\(count) calls ended") { all.count >= count }
    return all
  }
}
