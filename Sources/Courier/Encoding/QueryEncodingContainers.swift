import Foundation

/// The keyed container of `QueryTreeEncoder`: the members of a struct, class or dictionary.
struct QueryKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let context: EncodingContext
  let storage: KeyedStorage
  let codingPath: [any CodingKey]

  private func set(_ value: PendingNode, for key: some CodingKey) {
    storage.set(value, key: QueryCodingKey(key), name: context.name(for: key))
  }

  private func set(_ scalar: QueryNode.Scalar, for key: Key) {
    set(.node(.scalar(scalar)), for: key)
  }

  mutating func encodeNil(forKey key: Key) throws { set(.node(.null), for: key) }
  /// Stores a scalar already converted (by ``FlatKeyedContainer``, after the value left the flat path).
  mutating func encodeScalar(_ scalar: QueryNode.Scalar, forKey key: Key) throws { set(scalar, for: key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), for: key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { set(.float(value), for: key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), for: key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { set(.uint(UInt64(value)), for: key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.uint(UInt64(value)), for: key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.uint(UInt64(value)), for: key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.uint(UInt64(value)), for: key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.uint(value), for: key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(try context.box(value, at: codingPath + [key]), for: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested: KeyedStorage
    if case .keyed(let existing)? = storage.value(forKey: key.stringValue) {
      nested = existing
    } else {
      nested = KeyedStorage(sortsKeys: false)
      set(.keyed(nested), for: key)
    }
    let container = QueryKeyedContainer<NestedKey>(context: context, storage: nested, codingPath: codingPath + [key])
    return KeyedEncodingContainer(container)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested: UnkeyedStorage
    if case .unkeyed(let existing)? = storage.value(forKey: key.stringValue) {
      nested = existing
    } else {
      nested = UnkeyedStorage()
      set(.unkeyed(nested), for: key)
    }
    return QueryUnkeyedContainer(context: context, storage: nested, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    makeSuperEncoder(for: QueryCodingKey.super)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    makeSuperEncoder(for: key)
  }

  private func makeSuperEncoder(for key: some CodingKey) -> any Encoder {
    let encoder = QueryTreeEncoder(codingPath: codingPath + [key], context: context)
    set(.encoder(encoder), for: key)
    return encoder
  }
}

/// The unkeyed container of `QueryTreeEncoder`: the elements of an array.
struct QueryUnkeyedContainer: UnkeyedEncodingContainer {
  let context: EncodingContext
  let storage: UnkeyedStorage
  let codingPath: [any CodingKey]

  var count: Int { storage.elements.count }

  /// The coding path of the next element.
  private var nextPath: [any CodingKey] { codingPath + [QueryCodingKey(intValue: count)] }

  private func append(_ scalar: QueryNode.Scalar) {
    storage.elements.append(.node(.scalar(scalar)))
  }

  mutating func encodeNil() throws { storage.elements.append(.node(.null)) }
  mutating func encode(_ value: Bool) throws { append(.bool(value)) }
  mutating func encode(_ value: String) throws { append(.string(value)) }
  mutating func encode(_ value: Double) throws { append(.double(value)) }
  mutating func encode(_ value: Float) throws { append(.float(value)) }
  mutating func encode(_ value: Int) throws { append(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { append(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { append(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { append(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { append(.int(value)) }
  mutating func encode(_ value: UInt) throws { append(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { append(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt16) throws { append(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt32) throws { append(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt64) throws { append(.uint(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let element = try context.box(value, at: nextPath)
    storage.elements.append(element)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = KeyedStorage(sortsKeys: false)
    let path = nextPath
    storage.elements.append(.keyed(nested))
    return KeyedEncodingContainer(QueryKeyedContainer<NestedKey>(context: context, storage: nested, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = UnkeyedStorage()
    let path = nextPath
    storage.elements.append(.unkeyed(nested))
    return QueryUnkeyedContainer(context: context, storage: nested, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = QueryTreeEncoder(codingPath: nextPath, context: context)
    storage.elements.append(.encoder(encoder))
    return encoder
  }
}

/// The single-value container of `QueryTreeEncoder`: a value that is not a container itself.
struct QuerySingleValueContainer: SingleValueEncodingContainer {
  let encoder: QueryTreeEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }

  private func set(_ scalar: QueryNode.Scalar) throws {
    try encoder.setSingleValue(.node(.scalar(scalar)))
  }

  mutating func encodeNil() throws { try encoder.setSingleValue(.node(.null)) }
  mutating func encode(_ value: Bool) throws { try set(.bool(value)) }
  mutating func encode(_ value: String) throws { try set(.string(value)) }
  mutating func encode(_ value: Double) throws { try set(.double(value)) }
  mutating func encode(_ value: Float) throws { try set(.float(value)) }
  mutating func encode(_ value: Int) throws { try set(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { try set(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { try set(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { try set(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { try set(.int(value)) }
  mutating func encode(_ value: UInt) throws { try set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { try set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt16) throws { try set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt32) throws { try set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt64) throws { try set(.uint(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try encoder.setSingleValue(encoder.context.box(value, at: codingPath))
  }
}
