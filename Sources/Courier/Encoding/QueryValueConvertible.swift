import Foundation

/// A value that can stand in a query: strings, integers, floating point numbers, `Bool`, `Date`, arrays and
/// optionals of these, ``QueryValue`` and ``QueryParameters``.
///
/// It lets values held in variables go where literals go:
///
/// ```swift
/// let text = searchField.text          // String
/// let page: Int? = nextPage            // nil leaves the parameter out
/// Endpoint<[Product]>.get("/search").query("q", text).query("page", page).query("tags", selectedTags)
/// let query: QueryParameters = ["q": .init(text), "page": 2]
/// ```
///
/// Conform your own types (an enum's raw value, an identifier) to send them as they are:
///
/// ```swift
/// extension ProductID: QueryValueConvertible {
///   public var queryValue: QueryValue { .string(rawValue) }
/// }
/// ```
public protocol QueryValueConvertible: Sendable {
  /// The value as it is written into a query.
  var queryValue: QueryValue { get }
}

extension QueryValue: QueryValueConvertible {
  /// The value itself.
  public var queryValue: QueryValue { self }

  /// The query value of `value`: `QueryValue(text)`, or `.init(count)` where a `QueryValue` is expected.
  public init(_ value: some QueryValueConvertible) {
    self = value.queryValue
  }
}

extension QueryParameters: QueryValueConvertible {
  /// The query as a nested object: `filter[min]=10`.
  public var queryValue: QueryValue { .object(self) }
}

extension String: QueryValueConvertible {
  /// `.string`.
  public var queryValue: QueryValue { .string(self) }
}

extension Substring: QueryValueConvertible {
  /// `.string`.
  public var queryValue: QueryValue { .string(String(self)) }
}

extension Bool: QueryValueConvertible {
  /// `.bool`, written as `true`/`false`, or `1`/`0` when the encoder's `encodesBoolsAsNumbers` says so.
  public var queryValue: QueryValue { .bool(self) }
}

extension Date: QueryValueConvertible {
  /// `.date`, written as the encoder's `dateEncoding` says.
  public var queryValue: QueryValue { .date(self) }
}

extension Double: QueryValueConvertible {
  /// `.double`.
  public var queryValue: QueryValue { .double(self) }
}

extension Float: QueryValueConvertible {
  /// `.double`, from the float's shortest decimal form (`0.1`, not `0.10000000149011612`).
  public var queryValue: QueryValue { .double(Double(description) ?? Double(self)) }
}

extension Int: QueryValueConvertible {
  /// `.int`.
  public var queryValue: QueryValue { .int(Int64(self)) }
}

extension Int8: QueryValueConvertible {
  /// `.int`.
  public var queryValue: QueryValue { .int(Int64(self)) }
}

extension Int16: QueryValueConvertible {
  /// `.int`.
  public var queryValue: QueryValue { .int(Int64(self)) }
}

extension Int32: QueryValueConvertible {
  /// `.int`.
  public var queryValue: QueryValue { .int(Int64(self)) }
}

extension Int64: QueryValueConvertible {
  /// `.int`.
  public var queryValue: QueryValue { .int(self) }
}

extension UInt: QueryValueConvertible {
  /// `.uint`.
  public var queryValue: QueryValue { .uint(UInt64(self)) }
}

extension UInt8: QueryValueConvertible {
  /// `.uint`.
  public var queryValue: QueryValue { .uint(UInt64(self)) }
}

extension UInt16: QueryValueConvertible {
  /// `.uint`.
  public var queryValue: QueryValue { .uint(UInt64(self)) }
}

extension UInt32: QueryValueConvertible {
  /// `.uint`.
  public var queryValue: QueryValue { .uint(UInt64(self)) }
}

extension UInt64: QueryValueConvertible {
  /// `.uint`.
  public var queryValue: QueryValue { .uint(self) }
}

extension Optional: QueryValueConvertible where Wrapped: QueryValueConvertible {
  /// The wrapped value's, or `.null` (the parameter is left out) for `nil`.
  public var queryValue: QueryValue { self?.queryValue ?? .null }
}

extension Array: QueryValueConvertible where Element: QueryValueConvertible {
  /// `.array`, written as the encoder's `ArrayEncoding` says.
  public var queryValue: QueryValue { .array(map(\.queryValue)) }
}
