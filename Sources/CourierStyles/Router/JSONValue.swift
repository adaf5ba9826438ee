import Courier
import Foundation

/// Any JSON value, written as a literal: for bodies and parameters that do not deserve their own type.
///
/// ```swift
/// let body: JSONValue = ["title": "Hello", "draft": false, "tags": ["swift", "http"], "rating": 4.5, "note": nil]
/// try await client.send(Endpoint<Post>.post("/posts", body: body))
/// case .create(let title): .requestParameters(body: ["title": .string(title), "body": "…"])
/// ```
///
/// Objects keep the order their keys were written in (and, when decoded, the order they arrived in); two objects
/// are equal when they hold the same keys and values in any order.
public enum JSONValue: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number.
  case int(Int)
  /// A number with a fraction, or too large for `Int`.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, in key order.
  case object([(key: String, value: JSONValue)])
}

extension JSONValue: Codable {
  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer() {
      if single.decodeNil() {
        self = .null
        return
      }
      if let value = try? single.decode(Bool.self) {
        self = .bool(value)
        return
      }
      if let value = try? single.decode(Int.self) {
        self = .int(value)
        return
      }
      if let value = try? single.decode(Double.self) {
        self = .double(value)
        return
      }
      if let value = try? single.decode(String.self) {
        self = .string(value)
        return
      }
    }
    if var array = try? decoder.unkeyedContainer() {
      var values: [JSONValue] = []
      while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
      self = .array(values)
      return
    }
    let object = try decoder.container(keyedBy: JSONKey.self)
    self = .object(try object.allKeys.map { ($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
  }

  /// Encodes the value; an object's `null` members are written as `null`.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .bool(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .int(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .double(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .string(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .array(let values):
      var array = encoder.unkeyedContainer()
      for value in values { try array.encode(value) }
    case .object(let members):
      var object = encoder.container(keyedBy: JSONKey.self)
      for (key, value) in members { try object.encode(value, forKey: JSONKey(key)) }
    }
  }

  struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

extension JSONValue: Hashable {
  /// Compares values; objects compare by their members in any order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a.count == b.count && Dictionary(a) { $1 } == Dictionary(b) { $1 }
    default: false
    }
  }

  /// Hashes the value consistently with `==`.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let value): hasher.combine(value)
    case .int(let value): hasher.combine(Double(value))
    case .double(let value): hasher.combine(value)
    case .string(let value): hasher.combine(value)
    case .array(let values): hasher.combine(values)
    case .object(let members): hasher.combine(Dictionary(members) { $1 })
    }
  }
}
