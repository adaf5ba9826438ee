import CourierTestSupport
import Foundation
import Testing

@testable import Courier

@Suite struct URLQueryCustomEncodableTests {
  class Animal: Encodable {
    var name: String
    var legs: Int

    init(name: String, legs: Int) {
      self.name = name
      self.legs = legs
    }

    enum CodingKeys: String, CodingKey { case name, legs }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(legs, forKey: .legs)
    }
  }

  /// Uses nested keyed and unkeyed containers, `superEncoder()` and `superEncoder(forKey:)`.
  final class Dog: Animal {
    var breed = "collie"
    var vaccinations = ["rabies", "parvo"]
    var owner = (first: "Ann", last: "Lee")

    enum DogKeys: String, CodingKey { case breed, details, vaccinations, parent }
    enum DetailKeys: String, CodingKey { case owner, goodBoy }
    enum OwnerKeys: String, CodingKey { case first, last }

    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: DogKeys.self)
      try container.encode(breed, forKey: .breed)
      var details = container.nestedContainer(keyedBy: DetailKeys.self, forKey: .details)
      var owner = details.nestedContainer(keyedBy: OwnerKeys.self, forKey: .owner)
      try owner.encode(self.owner.first, forKey: .first)
      try owner.encode(self.owner.last, forKey: .last)
      try details.encode(true, forKey: .goodBoy)
      var list = container.nestedUnkeyedContainer(forKey: .vaccinations)
      for vaccination in vaccinations { try list.encode(vaccination) }
      try super.encode(to: container.superEncoder())
      try super.encode(to: container.superEncoder(forKey: .parent))
    }
  }

  /// Subclass that shares its superclass's keyed container instead of a super encoder.
  final class Cat: Animal {
    var indoor = true
    enum CatKeys: String, CodingKey { case indoor }

    override func encode(to encoder: any Encoder) throws {
      try super.encode(to: encoder)
      var container = encoder.container(keyedBy: CatKeys.self)
      try container.encode(indoor, forKey: .indoor)
    }
  }

  @Test func classWithNestedContainersAndSuperEncoders() throws {
    let dog = Dog(name: "Rex", legs: 4)
    #expect(
      try unescapedQuery(dog)
        == "breed=collie&details[owner][first]=Ann&details[owner][last]=Lee&details[goodBoy]=true"
        + "&vaccinations[]=rabies&vaccinations[]=parvo&super[name]=Rex&super[legs]=4"
        + "&parent[name]=Rex&parent[legs]=4"
    )
  }

  @Test func superEncoderKeysFollowKeyEncoding() throws {
    let encoder = URLQueryEncoder(keyEncoding: .custom { $0.uppercased() })
    let names = try encoder.encode(Dog(name: "Rex", legs: 4)).map(\.name)
    #expect(names.contains("SUPER[NAME]"))
    #expect(names.contains("PARENT[LEGS]"))
  }

  @Test func subclassSharingTheKeyedContainerMergesKeys() throws {
    #expect(try unescapedQuery(Cat(name: "Tom", legs: 4)) == "name=Tom&legs=4&indoor=true")
  }

  @Test func classesNestedInStructs() throws {
    struct Household: Encodable {
      var pets: [Animal]
    }
    let household = Household(pets: [Cat(name: "Tom", legs: 4), Animal(name: "Ed", legs: 0)])
    #expect(
      try unescapedQuery(household, URLQueryEncoder(arrayEncoding: .indexed))
        == "pets[0][name]=Tom&pets[0][legs]=4&pets[0][indoor]=true&pets[1][name]=Ed&pets[1][legs]=0"
    )
  }

  @Test func singleValueContainersInsideKeyedContainers() throws {
    struct Cents: Encodable {
      var value: Int
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(value / 100).\(String(format: "%02d", value % 100))")
      }
    }
    struct Order: Encodable {
      var price = Cents(value: 1050)
      var history = [Cents(value: 5), Cents(value: 100)]
    }
    #expect(try unescapedQuery(Order()) == "price=10.50&history[]=0.05&history[]=1.00")
  }

  @Test func singleValueWrappersForwardingToKeyedValues() throws {
    struct Wrapper<Wrapped: Encodable>: Encodable {
      var wrapped: Wrapped
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrapped)
      }
    }
    struct Point: Encodable {
      var x = 1
      var y = 2
    }
    #expect(try unescapedQuery(Wrapper(wrapped: Point())) == "x=1&y=2")
    #expect(try unescapedQuery(["p": Wrapper(wrapped: Point())]) == "p[x]=1&p[y]=2")
    #expect(try unescapedQuery(Wrapper(wrapped: ["b": 1, "a": 2])) == "a=2&b=1")
    #expect(
      try unescapedQuery(["d": Wrapper(wrapped: queryTestNoon)], URLQueryEncoder(dateEncoding: .secondsSince1970))
        == "d=1714564800")
  }

  @Test func encodingAKeyTwiceReplacesItInPlace() throws {
    struct Twice: Encodable {
      enum CodingKeys: String, CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .a)
        try container.encode(2, forKey: .b)
        try container.encode(3, forKey: .a)
      }
    }
    #expect(try unescapedQuery(Twice()) == "a=3&b=2")
  }

  @Test func nestedContainerForTheSameKeyIsShared() throws {
    struct Split: Encodable {
      enum Keys: String, CodingKey { case range }
      enum RangeKeys: String, CodingKey { case low, high }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var first = container.nestedContainer(keyedBy: RangeKeys.self, forKey: .range)
        try first.encode(1, forKey: .low)
        var second = container.nestedContainer(keyedBy: RangeKeys.self, forKey: .range)
        try second.encode(9, forKey: .high)
      }
    }
    #expect(try unescapedQuery(Split()) == "range[low]=1&range[high]=9")
  }

  @Test func unkeyedContainersWithNestedContainersAndSuperEncoders() throws {
    struct Matrix: Encodable {
      func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey { case rows }
        enum CellKeys: String, CodingKey { case v }
        var container = encoder.container(keyedBy: Keys.self)
        var rows = container.nestedUnkeyedContainer(forKey: .rows)
        var row = rows.nestedUnkeyedContainer()
        try row.encode(1)
        try row.encodeNil()
        try row.encode(2)
        var cell = rows.nestedContainer(keyedBy: CellKeys.self)
        try cell.encode("x", forKey: .v)
        try "via super".encode(to: rows.superEncoder())
        #expect(rows.count == 3)
      }
    }
    #expect(
      try unescapedQuery(Matrix(), URLQueryEncoder(arrayEncoding: .indexed))
        == "rows[0][0]=1&rows[0][1]=2&rows[1][v]=x&rows[2]=via super"
    )
    let (_, context) = try requireInvalidValue { try URLQueryEncoder().encode(Matrix()) }
    #expect(pathStrings(context.codingPath) == ["rows", "0"])
  }

  @Test func containerCodingPathsAreReported() throws {
    final class PathRecorder: @unchecked Sendable {
      var paths: [[String]] = []
    }
    struct Probe: Encodable {
      let recorder: PathRecorder
      func encode(to encoder: any Encoder) throws {
        recorder.paths.append(pathStrings(encoder.codingPath))
        var single = encoder.singleValueContainer()
        recorder.paths.append(pathStrings(single.codingPath))
        try single.encode(1)
      }
    }
    struct Root: Encodable {
      let recorder: PathRecorder
      enum CodingKeys: String, CodingKey { case outer }
      enum InnerKeys: String, CodingKey { case inner }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var nested = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .outer)
        recorder.paths.append(pathStrings(nested.codingPath))
        try nested.encode(Probe(recorder: recorder), forKey: .inner)
        var list = container.nestedUnkeyedContainer(forKey: .outer)
        recorder.paths.append(pathStrings(list.codingPath))
        try list.encode(Probe(recorder: recorder))
      }
    }
    let recorder = PathRecorder()
    _ = try URLQueryEncoder(arrayEncoding: .indexed).encode(Root(recorder: recorder))
    #expect(
      recorder.paths == [
        ["outer"], ["outer", "inner"], ["outer", "inner"], ["outer"], ["outer", "0"], ["outer", "0"],
      ])
  }

  @Test func enumsWithAssociatedValues() throws {
    enum Shape: Encodable {
      case circle(radius: Double)
      case square(side: Int)
      case point
    }
    #expect(try unescapedQuery(["shape": Shape.circle(radius: 2)]) == "shape[circle][radius]=2.0")
    #expect(try unescapedQuery(["shape": Shape.square(side: 3)]) == "shape[square][side]=3")
    #expect(try unescapedQuery(["shape": Shape.point]).isEmpty)
  }

  @Test func valuesThatEncodeNothingAreOmitted() throws {
    struct Nothing: Encodable {
      func encode(to encoder: any Encoder) throws {}
    }
    struct Holder: Encodable {
      var a = 1
      var nothing = Nothing()
      var list = [Nothing()]
    }
    #expect(try unescapedQuery(Holder()) == "a=1")
    #expect(try URLQueryEncoder().encode(Nothing()).isEmpty)
  }

  @Test func emptyStructsAndDictionariesProduceNoItems() throws {
    struct EmptyBody: Encodable {}
    #expect(try URLQueryEncoder().encode(EmptyBody()).isEmpty)
    #expect(try URLQueryEncoder().encode([String: Int]()).isEmpty)
    #expect(try URLQueryEncoder().percentEncodedString(EmptyBody()) == "")
  }

  @Test func userInfoIsEmpty() throws {
    struct Probe: Encodable {
      func encode(to encoder: any Encoder) throws {
        #expect(encoder.userInfo.isEmpty)
        var container = encoder.singleValueContainer()
        try container.encode(1)
      }
    }
    _ = try URLQueryEncoder().encode(["p": Probe()])
  }

  @Test func encoderIsSendableAcrossTasks() async throws {
    struct Value: Encodable { var n: Int }
    let encoder = URLQueryEncoder(arrayEncoding: .indexed, keyEncoding: .custom { "k_" + $0 })
    let results = try await withThrowingTaskGroup(of: String.self) { group in
      for number in 0..<8 {
        group.addTask { try encoder.percentEncodedString(Value(n: number)) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Set(results) == Set((0..<8).map { "k_n=\($0)" }))
  }
}
