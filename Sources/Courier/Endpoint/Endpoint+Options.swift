import Foundation
import HTTPTypes

extension Endpoint {
  /// Sets an `Idempotency-Key`, which makes a POST or PATCH safe to retry.
  public func idempotencyKey(_ key: String = UUID().uuidString) -> Endpoint {
    header(HTTPHeader("Idempotency-Key", key))
  }

  /// Makes the call take at least `seconds`, so a loading indicator does not flicker; cancellation stays immediate.
  public func minimumDuration(_ seconds: TimeInterval) -> Endpoint {
    with { $0.minimumDuration = seconds }
  }

  /// Sets a per-call setting read by an interceptor (or a transport); see ``AttributeKey``.
  ///
  /// ```swift
  /// let urgent = Endpoint<Order>.post("/orders", body: order).attribute(Priority.self, 2)
  /// ```
  public func attribute<Key: AttributeKey>(_ key: Key.Type, _ value: Key.Value) -> Endpoint {
    with { $0.attributes[key] = value }
  }

  /// The endpoint's value for `key`, or the key's ``AttributeKey/defaultValue`` when none was set.
  ///
  /// ```swift
  /// Endpoint<Order>.get("/orders").attribute(Priority.self, 2)[Priority.self]  // 2
  /// ```
  public subscript<Key: AttributeKey>(key: Key.Type) -> Key.Value {
    get { attributes[key] }
    set { attributes[key] = newValue }
  }
}
