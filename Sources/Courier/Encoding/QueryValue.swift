import Foundation

/// One value in a hand-written `QueryParameters`: a scalar, an array, a nested object, or `null`.
///
/// It is the same tree the encoder builds from `Encodable` values, and literals of every kind create it:
///
/// ```swift
/// let query: QueryParameters = [
///   "q": "shoes",                      // .string
///   "page": 2,                         // .int
///   "ratio": 0.5,                      // .double
///   "inStock": true,                   // .bool
///   "tags": ["sale", "new"],           // .array
///   "price": ["min": 10, "max": 50],   // .object
///   "coupon": nil,                     // .null — left out of the output
/// ]
/// // q=shoes&page=2&ratio=0.5&inStock=true&tags[]=sale&tags[]=new&price[min]=10&price[max]=50
/// ```
///
/// Values held in variables convert with ``init(_:)``, written `.init(count)` inside a literal, or go straight into
/// ``Endpoint/query(_:_:)-(_,QueryValueConvertible)`` and
/// ``QueryParameters/init(_:)-(KeyValuePairs<String,QueryValueConvertible>)``;
/// see ``QueryValueConvertible``.
public enum QueryValue: Sendable, Equatable {
  /// Text, written as is (percent-encoding happens later).
  case string(String)
  /// A signed integer, written in decimal.
  case int(Int64)
  /// An unsigned integer, written in decimal; use it for values above `Int64.max`.
  case uint(UInt64)
  /// A floating-point number, written with its `description` (`1.5`, `2.0`). It must be finite.
  case double(Double)
  /// A Boolean, written as `true`/`false`, or `1`/`0` with `URLQueryEncoder.encodesBoolsAsNumbers`.
  case bool(Bool)
  /// A date, written according to the encoder's `dateEncoding` (a ``DateCodingStrategy``).
  case date(Date)
  /// An array, written according to `URLQueryEncoder.ArrayEncoding`.
  case array([QueryValue])
  /// A nested object, written with bracketed names: `filter[min]=10`.
  case object(QueryParameters)
  /// No value: the parameter (or array element) is left out.
  case null
}

extension QueryValue: ExpressibleByStringLiteral {
  /// Creates a `.string` from a string literal: `"shoes"`.
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension QueryValue: ExpressibleByIntegerLiteral {
  /// Creates an `.int` from an integer literal: `42`.
  public init(integerLiteral value: Int64) {
    self = .int(value)
  }
}

extension QueryValue: ExpressibleByFloatLiteral {
  /// Creates a `.double` from a floating-point literal: `0.5`.
  public init(floatLiteral value: Double) {
    self = .double(value)
  }
}

extension QueryValue: ExpressibleByBooleanLiteral {
  /// Creates a `.bool` from `true` or `false`.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension QueryValue: ExpressibleByArrayLiteral {
  /// Creates an `.array` from an array literal: `["sale", "new"]`.
  public init(arrayLiteral elements: QueryValue...) {
    self = .array(elements)
  }
}

extension QueryValue: ExpressibleByDictionaryLiteral {
  /// Creates an `.object` from a dictionary literal, keeping the written order: `["min": 10, "max": 50]`.
  public init(dictionaryLiteral elements: (String, QueryValue)...) {
    self = .object(QueryParameters(elements))
  }
}

extension QueryValue: ExpressibleByNilLiteral {
  /// Creates `.null` from `nil`, for a parameter that should be left out.
  ///
  /// Where a `QueryValue?` is expected, such as `query["page"] = nil`, `nil` means "no value" instead and
  /// removes the parameter.
  public init(nilLiteral: ()) {
    self = .null
  }
}
