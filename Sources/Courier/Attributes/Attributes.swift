/// Typed per-call settings, keyed by ``AttributeKey`` types: an endpoint carries them and every interceptor of
/// the call reads them from its ``CallContext``; the public way in is each holder's subscript
/// (`endpoint[Priority.self]`, `context[Priority.self]`, `options[Priority.self]`).
package struct Attributes: Sendable {
  /// A call carries a handful of attributes: a scan comparing type identities costs less than hashing them.
  private var entries: [Entry] = []

  private struct Entry: Sendable {
    let key: ObjectIdentifier
    var value: any Sendable
  }

  /// An empty store: every key reads as its default.
  package init() {}

  /// The value for `key`, or its ``AttributeKey/defaultValue`` when none was set.
  package subscript<Key: AttributeKey>(key: Key.Type) -> Key.Value {
    get {
      let id = ObjectIdentifier(key)
      for entry in entries where entry.key == id { return entry.value as? Key.Value ?? Key.defaultValue }
      return Key.defaultValue
    }
    set {
      let id = ObjectIdentifier(key)
      if let index = entries.firstIndex(where: { $0.key == id }) {
        entries[index].value = newValue
      } else {
        entries.append(Entry(key: id, value: newValue))
      }
    }
  }

  /// Whether a value was set for `key`.
  package func contains<Key: AttributeKey>(_ key: Key.Type) -> Bool {
    let id = ObjectIdentifier(key)
    return entries.contains { $0.key == id }
  }

  /// Forgets the value of `key`, which then reads as its default again.
  package mutating func removeValue<Key: AttributeKey>(for key: Key.Type) {
    let id = ObjectIdentifier(key)
    entries.removeAll { $0.key == id }
  }

  /// Whether no key has a value.
  package var isEmpty: Bool { entries.isEmpty }
}
