/// A coding key for paths the encoder builds itself: array indices, dictionary keys and names from a `QueryParameters`.
struct QueryCodingKey: CodingKey, Sendable, Hashable {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }

  /// Copies any coding key, keeping both its string and integer values.
  init(_ key: some CodingKey) {
    self.stringValue = key.stringValue
    self.intValue = key.intValue
  }

  /// The key `superEncoder()` uses, as in `JSONEncoder`.
  static let `super` = QueryCodingKey(stringValue: "super")
}
