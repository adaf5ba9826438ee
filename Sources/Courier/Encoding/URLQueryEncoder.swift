import Foundation

/// Encodes `Encodable` values and hand-written `QueryParameters` values as URL query parameters or
/// `application/x-www-form-urlencoded` bodies.
///
/// Structs and classes encode their properties in declaration order; nested values use bracket syntax.
///
/// ```swift
/// struct Search: Encodable {
///   var term: String
///   var page: Int
///   var filter: Filter?
///   struct Filter: Encodable { var minPrice: Int; var tags: [String] }
/// }
///
/// let encoder = URLQueryEncoder(keyEncoding: .convertToSnakeCase)
/// let search = Search(term: "red shoes", page: 2, filter: .init(minPrice: 10, tags: ["sale", "new"]))
/// try encoder.percentEncodedString(search)
/// // "term=red%20shoes&page=2&filter%5Bmin_price%5D=10&filter%5Btags%5D%5B%5D=sale&filter%5Btags%5D%5B%5D=new"
/// // which reads, before percent-encoding: term=red shoes&page=2&filter[min_price]=10&filter[tags][]=sale&...
/// ```
///
/// Rules worth knowing:
/// - `nil` optionals and `QueryValue.null` are left out entirely, both as keys and as array elements.
/// - `Dictionary` keys are sorted, because a Swift dictionary has no stable order: integer keys (and numeric
///   string keys) numerically first, then the rest by string. Struct and class keys keep declaration order.
/// - `Date`, `URL` (its `absoluteString`), `UUID` (its `uuidString`) and `Decimal` (its `description`) are
///   encoded as single values, not through their own `Codable` representation.
/// - The top-level value must be keyed: a struct, a class or a dictionary.
/// - Invalid input never traps: it throws `EncodingError.invalidValue` whose `codingPath` leads to the offending
///   value (with the type's own keys, before `keyEncoding`, and array indices) and whose message names it in
///   query form, such as `"filters[tags][1]"`.
///
/// The encoder is a value type holding only options, so one instance can be shared freely across tasks.
public struct URLQueryEncoder: Sendable {
  /// How arrays are written. The default is `.brackets`.
  public var arrayEncoding: ArrayEncoding
  /// Whether `Bool` values are written as `1` and `0` instead of `true` and `false`. The default is `false`.
  public var encodesBoolsAsNumbers: Bool
  /// How `Date` values are written: the same strategies as for JSON bodies. The default is `.iso8601`
  /// (`2024-05-01T12:00:00Z`); `.secondsSince1970` gives `1714564800` (`1714564800.5` with a fraction),
  /// `.millisecondsSince1970` `1714564800000` (rounded), `.formatted(_:)` a formatter's text and `.custom(_:parse:)`
  /// your own.
  public var dateEncoding: DateCodingStrategy
  /// How the keys of structs, classes and dictionaries are transformed. The default leaves them unchanged.
  ///
  /// Names written by hand in a `QueryParameters` are used exactly as written and are not transformed.
  public var keyEncoding: KeyEncoding

  /// Creates an encoder; every option has a sensible default.
  ///
  /// ```swift
  /// let encoder = URLQueryEncoder(arrayEncoding: .repeated, encodesBoolsAsNumbers: true)  // tags=a&tags=b&on=1
  /// ```
  public init(
    arrayEncoding: ArrayEncoding = .brackets,
    encodesBoolsAsNumbers: Bool = false,
    dateEncoding: DateCodingStrategy = .iso8601,
    keyEncoding: KeyEncoding = .useDefaultKeys
  ) {
    self.arrayEncoding = arrayEncoding
    self.encodesBoolsAsNumbers = encodesBoolsAsNumbers
    self.dateEncoding = dateEncoding
    self.keyEncoding = keyEncoding
  }

  /// Encodes a value into ordered name/value pairs that are *not* percent-encoded.
  ///
  /// ```swift
  /// struct Page: Encodable { var page = 2; var tags = ["a b", "c"] }
  /// try URLQueryEncoder().encode(Page())
  /// // [page=2, tags[]=a b, tags[]=c]
  /// ```
  ///
  /// Hand the items to `URLComponents.queryItems`, which percent-encodes them for you (it leaves `+` alone,
  /// which many servers read as a space; `percentEncodedString(_:)` escapes it), or to
  /// `percentEncodedString(_:)`.
  ///
  /// A dictionary literal written directly in the call, as in `encode(["b": 1, "a": 2])`, becomes a `QueryParameters`
  /// and keeps its written order; a `Dictionary` value is encoded with its keys sorted.
  ///
  /// - Throws: `EncodingError.invalidValue` if the value is not keyed at the top level, contains a non-finite
  ///   number, contains an array the `arrayEncoding` cannot express, or a `.custom` date closure throws.
  @_disfavoredOverload
  public func encode(_ value: some Encodable) throws -> [URLQueryItem] {
    try FlatQueryEncoder.encode(
      value, options: self, flat: { $0.queryItems() }, tree: { try QuerySerializer(options: self).items(for: $0) })
  }

  /// Encodes a hand-written query into ordered name/value pairs that are *not* percent-encoded.
  ///
  /// The same rules and options apply as for `Encodable` values, except that names are used exactly as written
  /// (`keyEncoding` does not apply) and keys keep their written order.
  ///
  /// ```swift
  /// try URLQueryEncoder().encode(["page": 2, "filter": ["min": 10]])
  /// // [page=2, filter[min]=10]
  /// ```
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite number, an array the `arrayEncoding` cannot
  ///   express, or a `.custom` date closure that throws.
  public func encode(_ query: QueryParameters) throws -> [URLQueryItem] {
    try QuerySerializer(options: self).items(for: QueryNode.entries(of: query))
  }

  /// Encodes a value into a percent-encoded string such as `a=1&b=x%20y`, ready to be a URL's
  /// `percentEncodedQuery` or an `application/x-www-form-urlencoded` body.
  ///
  /// ```swift
  /// struct Login: Encodable { var user = "ann"; var password = "p&ss word" }
  /// try URLQueryEncoder().percentEncodedString(Login())  // "user=ann&password=p%26ss%20word"
  /// ```
  ///
  /// - Throws: the same errors as `encode(_:)`.
  @_disfavoredOverload
  public func percentEncodedString(_ value: some Encodable) throws -> String {
    try FlatQueryEncoder.encode(
      value, options: self, flat: { $0.percentEncodedQuery() },
      tree: { Self.percentEncodedString(try QuerySerializer(options: self).items(for: $0)) })
  }

  /// Encodes a hand-written query into a percent-encoded string such as `a=1&b=x%20y`.
  ///
  /// ```swift
  /// try URLQueryEncoder().percentEncodedString(["q": "swift & co", "page": 1])  // "q=swift%20%26%20co&page=1"
  /// ```
  ///
  /// - Throws: the same errors as `encode(_:)`.
  public func percentEncodedString(_ query: QueryParameters) throws -> String {
    Self.percentEncodedString(try encode(query))
  }
}
