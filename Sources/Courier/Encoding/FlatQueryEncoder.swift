import Foundation

/// The top-level `Encoder` of ``URLQueryEncoder`` for `Encodable` values.
///
/// While the value is flat (a struct or class whose properties are single values), its fields are kept in a list and
/// written out at the end, percent-encoded byte by byte, without building `QueryNode`'s tree. At the first property
/// that is not a single value (a nested container, an array, a key encoded twice), the fields so far move into the
/// tree's keyed storage and encoding goes on there, so the value's `encode(to:)` still runs once and the result, the
/// coding paths and the errors are those of `QueryTreeEncoder`.
final class FlatQueryEncoder: Encoder {
  /// One field of a flat value.
  struct Field {
    var key: QueryCodingKey
    var name: String
    /// `nil` for a nil value, which is left out.
    var scalar: QueryNode.Scalar?
  }

  /// What one encoding has written so far.
  ///
  /// One stored property, so that adding a field is one access to the encoder's state: Swift checks each access
  /// to a class's stored property for exclusivity at run time (Benchmarks/AB.md has what three or four accesses per
  /// field cost).
  struct State {
    var fields: [Field] = []
    /// The tree's storage once the value turned out not to be flat.
    var storage: KeyedStorage?
    /// The tree encoder the whole value went to when it asked for something other than a keyed container.
    var whole: QueryTreeEncoder?
    /// Past 16 fields, a Bloom filter over the keys written (4,096 bits, two per key), so a repeated key is
    /// noticed without a hash table: a key is compared with the others only when both its bits are already set.
    /// Below that, comparing with every key costs less.
    var filter: [UInt64] = []
  }

  let options: URLQueryEncoder
  let context: EncodingContext
  private var state = State()

  var fields: [Field] { state.fields }
  /// The tree's storage once the value turned out not to be flat.
  var storage: KeyedStorage? { state.storage }
  private var whole: QueryTreeEncoder? { state.whole }

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  private init(options: URLQueryEncoder) {
    self.options = options
    context = EncodingContext(keyEncoding: options.keyEncoding)
    state.fields.reserveCapacity(16)
  }

  /// Encodes `value`, then hands the result to `flat` when it was flat, or to `tree` with the tree's entries.
  static func encode<T: Encodable, Result>(
    _ value: T,
    options: URLQueryEncoder,
    flat: (FlatQueryEncoder) -> Result?,
    tree: ([QueryNode.Entry]) throws -> Result
  ) throws -> Result {
    if value is any SortedKeysMarker || EncodingContext.specialScalar(value) != nil {
      return try tree(try QueryTreeEncoder.encodeRoot(value, keyEncoding: options.keyEncoding))
    }
    let encoder = FlatQueryEncoder(options: options)
    try value.encode(to: encoder)
    if let whole = encoder.whole { return try tree(try QueryTreeEncoder.rootEntries(of: whole, value: value)) }
    if let error = encoder.context.deferredError { throw error }
    if let storage = encoder.storage { return try tree(storage.finishedEntries()) }
    if let result = flat(encoder) { return result }
    return try tree(encoder.entries)
  }

  /// The fields as the tree's entries.
  var entries: [QueryNode.Entry] {
    fields.map { QueryNode.Entry(key: $0.key, name: $0.name, node: $0.scalar.map { .scalar($0) } ?? .null) }
  }

  /// The percent-encoded query of a flat value, or `nil` when a value cannot be written (a non-finite number, say),
  /// so the tree's serializer reports it. The texts come first, so the query is written once, straight into the
  /// string's storage.
  func percentEncodedQuery() -> String? {
    let serializer = QuerySerializer(options: options)
    var texts: [String?] = []
    texts.reserveCapacity(fields.count)
    var capacity = 0
    for field in fields {
      guard let scalar = field.scalar else {
        texts.append(nil)
        continue
      }
      guard let text = serializer.flatText(for: scalar) else { return nil }
      texts.append(text)
      capacity += 3 * (field.name.utf8.count + text.utf8.count) + 2
    }
    return String(unsafeUninitializedCapacity: capacity) { buffer in
      var index = 0
      for (field, text) in zip(fields, texts) {
        guard let text else { continue }
        if index > 0 {
          buffer[index] = UInt8(ascii: "&")
          index += 1
        }
        index = PercentEncoding.write(field.name, keeping: PercentEncoding.unreserved, into: buffer, at: index)
        buffer[index] = UInt8(ascii: "=")
        index = PercentEncoding.write(text, keeping: PercentEncoding.unreserved, into: buffer, at: index + 1)
      }
      return index
    }
  }

  /// The items of a flat value, or `nil` when a value cannot be written.
  func queryItems() -> [URLQueryItem]? {
    let serializer = QuerySerializer(options: options)
    var items: [URLQueryItem] = []
    items.reserveCapacity(fields.count)
    for field in fields {
      guard let scalar = field.scalar else { continue }
      guard let text = serializer.flatText(for: scalar) else { return nil }
      items.append(URLQueryItem(name: field.name, value: text))
    }
    return items
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if let whole { return whole.container(keyedBy: type) }
    return KeyedEncodingContainer(FlatKeyedContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    handOverWhole().unkeyedContainer()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    handOverWhole().singleValueContainer()
  }

  /// Sends the whole value to a tree encoder, with the keyed container it may already have used.
  private func handOverWhole() -> QueryTreeEncoder {
    if let whole { return whole }
    let encoder = QueryTreeEncoder(codingPath: [], context: context)
    if !fields.isEmpty || storage != nil {
      _ = encoder.container(keyedBy: QueryCodingKey.self)
      for entry in tree().entries { encoder.keyedStorage?.set(entry.value, key: entry.key, name: entry.name) }
    }
    state.whole = encoder
    return encoder
  }

  /// The tree's storage, created from the fields so far the first time.
  func tree() -> KeyedStorage {
    Self.tree(in: &state)
  }

  private static func tree(in state: inout State) -> KeyedStorage {
    if let storage = state.storage { return storage }
    let created = KeyedStorage(sortsKeys: false)
    for field in state.fields {
      created.set(.node(field.scalar.map { .scalar($0) } ?? .null), key: field.key, name: field.name)
    }
    state.storage = created
    return created
  }

  /// Adds a field, or moves to the tree when its key was written before (the tree replaces it in place). Returns
  /// `false`, adding nothing, when the value has already moved to the tree: the caller then writes there.
  func add(_ scalar: QueryNode.Scalar?, key: some CodingKey) -> Bool {
    let field = Field(key: QueryCodingKey(key), name: context.name(for: key), scalar: scalar)
    return Self.add(field, keyString: key.stringValue, to: &state)
  }

  private static func add(_ field: Field, keyString: String, to state: inout State) -> Bool {
    guard state.storage == nil else { return false }
    if mayHaveSeen(keyString, in: &state), state.fields.contains(where: { $0.key.stringValue == keyString }) {
      tree(in: &state).set(.node(field.scalar.map { .scalar($0) } ?? .null), key: field.key, name: field.name)
    } else {
      state.fields.append(field)
    }
    return true
  }

  /// Whether `key` may have been written before: always below 16 fields, else when the filter says so.
  private static func mayHaveSeen(_ key: String, in state: inout State) -> Bool {
    if state.fields.count < 16 { return true }
    if state.filter.isEmpty {
      state.filter = [UInt64](repeating: 0, count: 64)
      for field in state.fields { _ = markSeen(field.key.stringValue, in: &state.filter) }
    }
    return markSeen(key, in: &state.filter)
  }

  /// Sets `key`'s two bits in `filter`; whether both were set already.
  private static func markSeen(_ key: String, in filter: inout [UInt64]) -> Bool {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    hash ^= hash >> 33
    hash &*= 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    let first = Int(hash & 4095)
    let second = Int((hash >> 12) & 4095)
    let firstBit = UInt64(1) << UInt64(first & 63)
    let secondBit = UInt64(1) << UInt64(second & 63)
    let seen = filter[first >> 6] & firstBit != 0 && filter[second >> 6] & secondBit != 0
    filter[first >> 6] |= firstBit
    filter[second >> 6] |= secondBit
    return seen
  }
}

/// The top-level keyed container of ``FlatQueryEncoder``: single values become fields; anything else moves the
/// value to the tree.
struct FlatKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: FlatQueryEncoder
  var codingPath: [any CodingKey] { [] }

  /// The tree's container, once the value is no longer flat.
  private var tree: QueryKeyedContainer<Key>? {
    encoder.storage.map { QueryKeyedContainer<Key>(context: encoder.context, storage: $0, codingPath: []) }
  }

  private func add(_ scalar: QueryNode.Scalar?, _ key: Key) throws {
    // The encoder first: building the generic tree container costs a metadata lookup per field.
    guard !encoder.add(scalar, key: key), var tree else { return }
    switch scalar {
    case .some(let scalar): try tree.encodeScalar(scalar, forKey: key)
    case .none: try tree.encodeNil(forKey: key)
    }
  }

  mutating func encodeNil(forKey key: Key) throws { try add(nil, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { try add(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { try add(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try add(.double(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try add(.float(value), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try add(.int(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try add(.uint(value), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    if encoder.storage != nil, var tree { return try tree.encode(value, forKey: key) }
    if let special = EncodingContext.specialScalar(value) { return try add(special, key) }
    // The property encodes itself (an enum's raw value, a nested struct, an array): through the tree, once.
    let node = try encoder.context.box(value, at: [key])
    switch node {
    case .node(.scalar(let scalar)): try add(scalar, key)
    case .node(.null): try add(nil, key)
    default: encoder.tree().set(node, key: QueryCodingKey(key), name: encoder.context.name(for: key))
    }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    var tree = self.tree ?? QueryKeyedContainer<Key>(context: encoder.context, storage: encoder.tree(), codingPath: [])
    return tree.nestedContainer(keyedBy: keyType, forKey: key)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    var tree = self.tree ?? QueryKeyedContainer<Key>(context: encoder.context, storage: encoder.tree(), codingPath: [])
    return tree.nestedUnkeyedContainer(forKey: key)
  }

  mutating func superEncoder() -> any Encoder {
    var tree = self.tree ?? QueryKeyedContainer<Key>(context: encoder.context, storage: encoder.tree(), codingPath: [])
    return tree.superEncoder()
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    var tree = self.tree ?? QueryKeyedContainer<Key>(context: encoder.context, storage: encoder.tree(), codingPath: [])
    return tree.superEncoder(forKey: key)
  }
}
