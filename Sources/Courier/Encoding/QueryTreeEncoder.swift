import Foundation

/// Marks types whose keyed encoding has no meaningful order, so the encoder sorts their keys.
/// `Dictionary` iterates in a random order that changes from run to run.
protocol SortedKeysMarker {}

extension Dictionary: SortedKeysMarker {}

/// A value under construction: either finished, or a container that may still receive values.
enum PendingNode {
  case node(QueryNode)
  case keyed(KeyedStorage)
  case unkeyed(UnkeyedStorage)
  /// An encoder handed out by `superEncoder()`; it is read when the tree is finished.
  case encoder(QueryTreeEncoder)

  /// The finished tree.
  var finished: QueryNode {
    switch self {
    case .node(let node):
      return node
    case .keyed(let storage):
      return .object(storage.finishedEntries())
    case .unkeyed(let storage):
      return .array(storage.elements.map(\.finished))
    case .encoder(let encoder):
      return encoder.slot?.finished ?? .null
    }
  }
}

/// Storage behind a keyed container. Encoding a key twice replaces the first value in place.
final class KeyedStorage {
  struct Entry {
    var key: QueryCodingKey
    var name: String
    var value: PendingNode
  }

  let sortsKeys: Bool
  private(set) var entries: [Entry] = []
  private var positions: [String: Int] = [:]

  init(sortsKeys: Bool) {
    self.sortsKeys = sortsKeys
  }

  func value(forKey key: String) -> PendingNode? {
    positions[key].map { entries[$0].value }
  }

  func set(_ value: PendingNode, key: QueryCodingKey, name: String) {
    if let position = positions[key.stringValue] {
      entries[position] = Entry(key: key, name: name, value: value)
    } else {
      positions[key.stringValue] = entries.count
      entries.append(Entry(key: key, name: name, value: value))
    }
  }

  /// The finished entries; dictionary keys are sorted, integer keys numerically and before any others.
  func finishedEntries() -> [QueryNode.Entry] {
    var result = entries.map { QueryNode.Entry(key: $0.key, name: $0.name, node: $0.value.finished) }
    if sortsKeys {
      result.sort { lhs, rhs in
        switch (lhs.key.intValue, rhs.key.intValue) {
        case let (left?, right?) where left != right: return left < right
        case (.some, nil): return true
        case (nil, .some): return false
        default: return (lhs.name, lhs.key.stringValue) < (rhs.name, rhs.key.stringValue)
        }
      }
    }
    return result
  }
}

/// Storage behind an unkeyed container.
final class UnkeyedStorage {
  var elements: [PendingNode] = []
}

/// State shared by every encoder and container of one `encode` call.
final class EncodingContext {
  let keyEncoding: URLQueryEncoder.KeyEncoding
  /// The first misuse found where the `Encoder` API cannot throw, such as asking one encoder for two
  /// different kinds of container. It is thrown when encoding finishes.
  private(set) var deferredError: (any Error)?

  init(keyEncoding: URLQueryEncoder.KeyEncoding) {
    self.keyEncoding = keyEncoding
  }

  func record(_ error: any Error) {
    if deferredError == nil { deferredError = error }
  }

  /// The name a key is written with.
  func name(for key: some CodingKey) -> String {
    keyEncoding.apply(to: key.stringValue)
  }

  /// A coding path in query form, such as `filters[tags][1]`, for error messages raised while encoding.
  func queryPath(_ path: [any CodingKey]) -> String {
    let names = path.map { $0.intValue != nil ? $0.stringValue : name(for: $0) }
    guard let first = names.first else { return "" }
    return first + names.dropFirst().map { "[\($0)]" }.joined()
  }

  /// Encodes one value into a pending node, encoding `Date`, `URL`, `UUID` and `Decimal` as single values.
  func box<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> PendingNode {
    if let scalar = Self.specialScalar(value) {
      return .node(.scalar(scalar))
    }
    let encoder = QueryTreeEncoder(codingPath: path, context: self, sortsKeys: value is any SortedKeysMarker)
    try value.encode(to: encoder)
    return encoder.slot ?? .node(.null)
  }

  /// The single value for a type the encoder writes itself instead of using its `Codable` form.
  ///
  /// The exact type is compared first, so no bridging cast (say, `Double` through `NSNumber`) can match.
  static func specialScalar<T: Encodable>(_ value: T) -> QueryNode.Scalar? {
    if T.self == Date.self, let date = value as? Date { return .date(date) }
    if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
    if T.self == UUID.self, let uuid = value as? UUID { return .string(uuid.uuidString) }
    if T.self == Decimal.self, let decimal = value as? Decimal { return .decimal(decimal) }
    if T.self == Data.self, let data = value as? Data { return .binary(.data(data)) }
    if T.self == MultipartFile.self, let attachment = value as? MultipartFile {
      return .binary(.attachment(attachment))
    }
    return nil
  }
}

/// The `Encoder` that turns an `Encodable` value into a `QueryNode` tree.
final class QueryTreeEncoder: Encoder {
  let codingPath: [any CodingKey]
  let context: EncodingContext
  /// Whether a keyed container created by this encoder sorts its keys (the value is a `Dictionary`).
  let sortsKeys: Bool
  /// What the value encoded: `nil` until it asks for a container or encodes a single value.
  private(set) var slot: PendingNode?

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The storage of the keyed container this encoder handed out, if any.
  var keyedStorage: KeyedStorage? {
    if case .keyed(let storage)? = slot { return storage }
    return nil
  }

  init(codingPath: [any CodingKey], context: EncodingContext, sortsKeys: Bool = false) {
    self.codingPath = codingPath
    self.context = context
    self.sortsKeys = sortsKeys
  }

  /// Encodes the top-level value, which must produce a keyed container.
  static func encodeRoot<T: Encodable>(
    _ value: T, keyEncoding: URLQueryEncoder.KeyEncoding
  ) throws
    -> [QueryNode.Entry]
  {
    if EncodingContext.specialScalar(value) != nil {
      throw notKeyed(value, encodedAs: "a single value")
    }
    let context = EncodingContext(keyEncoding: keyEncoding)
    let encoder = QueryTreeEncoder(codingPath: [], context: context, sortsKeys: value is any SortedKeysMarker)
    try value.encode(to: encoder)
    return try rootEntries(of: encoder, value: value)
  }

  /// The entries a top-level encoder produced for `value`, which must have used a keyed container.
  static func rootEntries<T>(of encoder: QueryTreeEncoder, value: T) throws -> [QueryNode.Entry] {
    if let error = encoder.context.deferredError { throw error }
    guard let slot = encoder.slot else { return [] }
    switch slot.finished {
    case .object(let entries): return entries
    case .array: throw notKeyed(value, encodedAs: "an array")
    case .scalar: throw notKeyed(value, encodedAs: "a single value")
    case .null: throw notKeyed(value, encodedAs: "nil")
    }
  }

  private static func notKeyed<T>(_ value: T, encodedAs description: String) -> EncodingError {
    EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: [],
        debugDescription: "The top-level \(T.self) cannot be encoded as a query: it encoded as \(description), "
          + "but a query needs a keyed value such as a struct, a class or a dictionary."
      )
    )
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let storage: KeyedStorage
    switch slot {
    case nil:
      storage = KeyedStorage(sortsKeys: sortsKeys)
      slot = .keyed(storage)
    case .keyed(let existing)?:
      storage = existing
    case let other?:
      recordConflict(requested: "a keyed container", existing: other)
      storage = KeyedStorage(sortsKeys: false)
    }
    return KeyedEncodingContainer(QueryKeyedContainer<Key>(context: context, storage: storage, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let storage: UnkeyedStorage
    switch slot {
    case nil:
      storage = UnkeyedStorage()
      slot = .unkeyed(storage)
    case .unkeyed(let existing)?:
      storage = existing
    case let other?:
      recordConflict(requested: "an unkeyed container", existing: other)
      storage = UnkeyedStorage()
    }
    return QueryUnkeyedContainer(context: context, storage: storage, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    QuerySingleValueContainer(encoder: self)
  }

  /// Stores a single value; a second single value replaces the first.
  func setSingleValue(_ value: PendingNode) throws {
    switch slot {
    case nil, .node?:
      slot = value
    case let other?:
      throw conflict(requested: "a single value", existing: other)
    }
  }

  private func recordConflict(requested: String, existing: PendingNode) {
    context.record(conflict(requested: requested, existing: existing))
  }

  private func conflict(requested: String, existing: PendingNode) -> EncodingError {
    let existingDescription: String
    switch existing {
    case .keyed: existingDescription = "a keyed container"
    case .unkeyed: existingDescription = "an unkeyed container"
    case .node, .encoder: existingDescription = "a single value"
    }
    let subject = codingPath.isEmpty ? "The top-level value" : "\"\(context.queryPath(codingPath))\""
    return EncodingError.invalidValue(
      existingDescription,
      EncodingError.Context(
        codingPath: codingPath,
        debugDescription: "\(subject) cannot be encoded: its encode(to:) asked for \(requested) "
          + "after already using \(existingDescription)."
      )
    )
  }
}
