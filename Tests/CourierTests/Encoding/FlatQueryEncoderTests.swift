import Foundation
import Testing

@testable import Courier

/// The flat path (fields written straight out) gives exactly what the tree gives, and hands over to the tree, once,
/// for anything that is not flat.
@Suite struct FlatQueryEncoderTests {
  enum Sort: String, Encodable { case price, name }

  struct Flat: Encodable {
    var term = "red shoes & socks/é+%"
    var page = 2
    var ratio: Float = 0.5
    var minPrice = 9.25
    var inStock = true
    var brand: String? = "Acme"
    var missing: Int? = nil
    var sort = Sort.price
    var since = Date(timeIntervalSince1970: 1_714_564_800)
    var link = URL(string: "https://a.test/x?y=1")!
    var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var amount = Decimal(string: "12.50")!
    var small: UInt8 = 7
    var negative: Int16 = -3
  }

  struct Mixed: Encodable {
    var term = "a b"
    var tags = ["x", "y z"]
    var filter = Inner()
    var after = 1
    struct Inner: Encodable { var minPrice = 1; var label: String? = "l" }
  }

  /// Writes `page` twice, then a nested container: the tree replaces the first value in place.
  struct Repeated: Encodable {
    enum Keys: String, CodingKey { case page, term, nested }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(1, forKey: .page)
      try container.encode("t", forKey: .term)
      try container.encode(2, forKey: .page)
      var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
      try nested.encode(3, forKey: .page)
    }
  }

  struct Counted: Encodable {
    let counter: Counter
    var value = 1
    var list = [1, 2]
    func encode(to encoder: any Encoder) throws {
      counter.count += 1
      var container = encoder.container(keyedBy: QueryCodingKey.self)
      try container.encode(value, forKey: QueryCodingKey(stringValue: "value"))
      try container.encode(list, forKey: QueryCodingKey(stringValue: "list"))
    }
  }

  final class Counter: @unchecked Sendable { var count = 0 }

  static let encoders: [URLQueryEncoder] = [
    URLQueryEncoder(),
    URLQueryEncoder(
      arrayEncoding: .indexed, encodesBoolsAsNumbers: true, dateEncoding: .secondsSince1970,
      keyEncoding: .convertToSnakeCase),
    URLQueryEncoder(arrayEncoding: .commaSeparated, dateEncoding: .millisecondsSince1970),
  ]

  /// What the tree alone gives.
  func treeItems(_ value: some Encodable, _ encoder: URLQueryEncoder) throws -> [URLQueryItem] {
    try QuerySerializer(options: encoder).items(
      for: try QueryTreeEncoder.encodeRoot(value, keyEncoding: encoder.keyEncoding))
  }

  @Test(arguments: 0..<3)
  func flatAndMixedValuesMatchTheTree(encoderIndex: Int) throws {
    let encoder = Self.encoders[encoderIndex]
    for value in [Flat() as any Encodable, Mixed(), Repeated(), [String: Int]()] {
      let expected = try treeItems(value, encoder)
      #expect(try encoder.encode(value) == expected, "\(type(of: value))")
      #expect(
        try encoder.percentEncodedString(value) == URLQueryEncoder.percentEncodedString(expected),
        "\(type(of: value))")
    }
  }

  @Test func aRepeatedKeyIsReplacedInPlaceAsTheTreeDoes() throws {
    #expect(try URLQueryEncoder().percentEncodedString(Repeated()) == "page=2&term=t&nested%5Bpage%5D=3")
  }

  @Test func encodeToRunsOnceEvenWhenTheValueIsNotFlat() throws {
    let counter = Counter()
    #expect(
      try URLQueryEncoder().percentEncodedString(Counted(counter: counter)) == "value=1&list%5B%5D=1&list%5B%5D=2")
    #expect(counter.count == 1)
  }

  @Test func errorsKeepTheTreesPathsAndMessages() throws {
    struct Bad: Encodable {
      var ok = 1
      var ratio = Double.nan
    }
    let flat = #expect(throws: EncodingError.self) { try URLQueryEncoder().percentEncodedString(Bad()) }
    let tree = #expect(throws: EncodingError.self) { try treeItems(Bad(), URLQueryEncoder()) }
    guard case .invalidValue(_, let flatContext)? = flat, case .invalidValue(_, let treeContext)? = tree else {
      Issue.record("not invalidValue")
      return
    }
    #expect(flatContext.debugDescription == treeContext.debugDescription)
    #expect(flatContext.codingPath.map(\.stringValue) == ["ratio"])
  }
}
