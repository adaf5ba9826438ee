import Foundation

/// The encoder's internal value tree, built from an `Encodable` value or a `QueryParameters` and then written out by
/// `QuerySerializer`. Unlike `QueryValue` it remembers each key's original coding key (for error paths) next to
/// the name it is written with, and it keeps `Float` and `Decimal` as they are so their text is exact.
indirect enum QueryNode {
  case scalar(Scalar)
  case array([QueryNode])
  case object([Entry])
  case null

  /// A single, non-container value.
  enum Scalar {
    case string(String)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case decimal(Decimal)
    case bool(Bool)
    case date(Date)
    /// `Data` or a `MultipartFile`: only a multipart body can carry it.
    case binary(FormBinary)
  }

  /// One member of an object.
  struct Entry {
    /// The key as the encoded type (or the `QueryParameters`) spelled it; used in `EncodingError.codingPath`.
    var key: QueryCodingKey
    /// The name written into the query, after key encoding.
    var name: String
    var node: QueryNode
  }
}

extension QueryNode {
  /// The tree for a hand-written query. Names are used as written.
  static func entries(of query: QueryParameters) -> [Entry] {
    query.map { Entry(key: QueryCodingKey(stringValue: $0.name), name: $0.name, node: QueryNode($0.value)) }
  }

  init(_ value: QueryValue) {
    switch value {
    case .string(let string): self = .scalar(.string(string))
    case .int(let int): self = .scalar(.int(int))
    case .uint(let uint): self = .scalar(.uint(uint))
    case .double(let double): self = .scalar(.double(double))
    case .bool(let bool): self = .scalar(.bool(bool))
    case .date(let date): self = .scalar(.date(date))
    case .array(let elements): self = .array(elements.map(QueryNode.init))
    case .object(let query): self = .object(QueryNode.entries(of: query))
    case .null: self = .null
    }
  }

  /// The public form of this node, reported as the offending value in `EncodingError.invalidValue`.
  var queryValue: QueryValue {
    switch self {
    case .scalar(.string(let string)): return .string(string)
    case .scalar(.int(let int)): return .int(int)
    case .scalar(.uint(let uint)): return .uint(uint)
    case .scalar(.double(let double)): return .double(double)
    case .scalar(.float(let float)): return .double(Double(float))
    case .scalar(.decimal(let decimal)): return .string(decimal.description)
    case .scalar(.bool(let bool)): return .bool(bool)
    case .scalar(.date(let date)): return .date(date)
    case .scalar(.binary(let binary)): return .string(binary.summary)
    case .array(let elements): return .array(elements.map(\.queryValue))
    case .object(let entries): return .object(QueryParameters(entries.map { ($0.name, $0.node.queryValue) }))
    case .null: return .null
    }
  }
}
