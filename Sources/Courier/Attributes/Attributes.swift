/// Typed per-call settings, keyed by ``AttributeKey`` types: an endpoint carries them and every interceptor of
/// the call reads them from its ``RequestContext``; the public way in is each holder's subscript
/// (`endpoint[Priority.self]`, `context[Priority.self]`, `options[Priority.self]`).
package struct Attributes: Sendable {
  private var values: [ObjectIdentifier: any Sendable] = [:]

  /// An empty store: every key reads as its default.
  package init() {}

  /// The value for `key`, or its ``AttributeKey/defaultValue`` when none was set.
  package subscript<Key: AttributeKey>(key: Key.Type) -> Key.Value {
    get {
      guard !values.isEmpty, let value = values[ObjectIdentifier(key)] else { return Key.defaultValue }
      return value as? Key.Value ?? Key.defaultValue
    }
    set { values[ObjectIdentifier(key)] = newValue }
  }

  /// Whether a value was set for `key`.
  package func contains<Key: AttributeKey>(_ key: Key.Type) -> Bool {
    values[ObjectIdentifier(key)] != nil
  }

  /// Forgets the value of `key`, which then reads as its default again.
  package mutating func removeValue<Key: AttributeKey>(for key: Key.Type) {
    values[ObjectIdentifier(key)] = nil
  }

  /// Whether no key has a value.
  package var isEmpty: Bool { values.isEmpty }
}
