/// Typed per-call settings, keyed by ``AttributeKey`` types: an endpoint carries them and every interceptor of
/// the call reads them from its ``RequestContext``.
///
/// ```swift
/// var attributes = Attributes()
/// attributes[Priority.self] = 2
/// attributes[Priority.self]  // 2; a key never set reads as its defaultValue
/// ```
public struct Attributes: Sendable {
  private var values: [ObjectIdentifier: any Sendable] = [:]

  /// An empty store: every key reads as its default.
  public init() {}

  /// The value for `key`, or its ``AttributeKey/defaultValue`` when none was set.
  public subscript<Key: AttributeKey>(key: Key.Type) -> Key.Value {
    get {
      guard !values.isEmpty, let value = values[ObjectIdentifier(key)] else { return Key.defaultValue }
      return value as? Key.Value ?? Key.defaultValue
    }
    set { values[ObjectIdentifier(key)] = newValue }
  }

  /// Whether a value was set for `key`.
  public func contains<Key: AttributeKey>(_ key: Key.Type) -> Bool {
    values[ObjectIdentifier(key)] != nil
  }

  /// Forgets the value of `key`, which then reads as its default again.
  public mutating func removeValue<Key: AttributeKey>(for key: Key.Type) {
    values[ObjectIdentifier(key)] = nil
  }

  /// Whether no key has a value.
  public var isEmpty: Bool { values.isEmpty }
}
