/// An ordered list of query parameters, for queries written by hand.
///
/// Unlike a `Dictionary`, a `QueryParameters` keeps the order you write and allows a name more than once. Values are
/// `QueryValue`s, so scalars, arrays and nested objects can all be written as literals:
///
/// ```swift
/// var query: QueryParameters = ["page": 2, "tags": ["a", "b"], "filter": ["min": 10]]
/// query["page"] = 3          // replaces in place
/// query["tags"] = nil        // removes every "tags"
/// query.append("sort", "name")
/// try URLQueryEncoder().percentEncodedString(query)
/// // "page=3&filter%5Bmin%5D=10&sort=name"
/// ```
///
/// A `QueryParameters` is a random-access collection of `(name: String, value: QueryValue)` pairs.
public struct QueryParameters: Sendable, Equatable, ExpressibleByDictionaryLiteral, RandomAccessCollection {
  /// One parameter: its name and its value.
  public typealias Element = (name: String, value: QueryValue)
  /// Positions are offsets from zero.
  public typealias Index = Int
  /// The valid positions, `0..<count`.
  public typealias Indices = Range<Int>

  private var pairs: [Element]

  /// Creates an empty query.
  public init() {
    pairs = []
  }

  /// Creates a query from name/value pairs, keeping their order and any repeated names.
  ///
  /// ```swift
  /// let query = QueryParameters([("id", 1), ("id", 2)])  // id=1&id=2
  /// ```
  public init(_ pairs: [(String, QueryValue)]) {
    self.pairs = pairs.map { (name: $0.0, value: $0.1) }
  }

  /// Creates a query from values held in variables, in the written order:
  /// `QueryParameters(["q": text, "page": page, "tags": tags])` (a `nil` optional is left out).
  ///
  /// A literal `QueryParameters` takes variables too, written `.init(text)`; nested objects and arrays that mix kinds
  /// are written as literals there.
  public init(_ pairs: KeyValuePairs<String, any QueryValueConvertible>) {
    self.pairs = pairs.map { (name: $0.key, value: $0.value.queryValue) }
  }

  /// Creates a query from a dictionary literal, keeping the written order and any repeated names.
  public init(dictionaryLiteral elements: (String, QueryValue)...) {
    self.init(elements)
  }

  /// The position of the first parameter; always `0`.
  public var startIndex: Int { pairs.startIndex }

  /// The position one past the last parameter; equal to `count`.
  public var endIndex: Int { pairs.endIndex }

  /// The parameter at `position`, which must be in `0..<count`.
  public subscript(position: Int) -> Element {
    pairs[position]
  }

  /// Whether the query has no parameters.
  public var isEmpty: Bool { pairs.isEmpty }

  /// The value of the first parameter called `name`, or `nil` if there is none.
  ///
  /// Setting a value replaces the first parameter with that name in place and removes any later ones with the
  /// same name, or appends a new parameter if there was none. Setting `nil` removes every parameter with
  /// that name.
  ///
  /// ```swift
  /// var query: QueryParameters = ["a": 1, "b": 2, "a": 3]
  /// query["a"] = 9    // a=9&b=2
  /// query["c"] = 4    // a=9&b=2&c=4
  /// query["b"] = nil  // a=9&c=4
  /// ```
  public subscript(name: String) -> QueryValue? {
    get {
      pairs.first { $0.name == name }?.value
    }
    set {
      guard let newValue else {
        pairs.removeAll { $0.name == name }
        return
      }
      guard let first = pairs.firstIndex(where: { $0.name == name }) else {
        pairs.append((name: name, value: newValue))
        return
      }
      pairs[first].value = newValue
      let rest = pairs[(first + 1)...].filter { $0.name != name }
      pairs.replaceSubrange((first + 1)..., with: rest)
    }
  }

  /// Adds a parameter at the end, even if one with the same name already exists.
  ///
  /// ```swift
  /// var query: QueryParameters = ["id": 1]
  /// query.append("id", 2)  // id=1&id=2
  /// ```
  public mutating func append(_ name: String, _ value: QueryValue) {
    pairs.append((name: name, value: value))
  }

  /// Adds a parameter from a value held in a variable, at the end.
  @_disfavoredOverload
  public mutating func append(_ name: String, _ value: some QueryValueConvertible) {
    pairs.append((name: name, value: value.queryValue))
  }

  /// Two queries are equal when they hold the same names and values in the same order.
  public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
    lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
  }

  /// Concatenates two queries, keeping the order of both; repeated names are kept.
  ///
  /// ```swift
  /// let defaults: QueryParameters = ["limit": 20]
  /// let query = defaults + ["q": "shoes"]  // limit=20&q=shoes
  /// ```
  public static func + (lhs: QueryParameters, rhs: QueryParameters) -> QueryParameters {
    var result = lhs
    result.pairs.append(contentsOf: rhs.pairs)
    return result
  }
}
