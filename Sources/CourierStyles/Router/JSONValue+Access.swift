import Courier

extension JSONValue {
  /// The member named `key` of an object (the last one, if written twice), or `nil`.
  ///
  /// ```swift
  /// let reply = try await client.value(Endpoint<JSONValue>.get("/status"))
  /// if reply["maintenance"]?.boolValue == true { showBanner() }
  /// ```
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// The element at `index` of an array, or `nil`.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let values) = self, values.indices.contains(index) else { return nil }
    return values[index]
  }

  /// The string, if this is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The whole number, if this is one.
  public var intValue: Int? {
    if case .int(let value) = self { return value }
    return nil
  }

  /// The number, whole or not, if this is one.
  public var doubleValue: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  /// The Boolean, if this is one.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// Whether this is `null`.
  public var isNull: Bool { self == .null }
}
