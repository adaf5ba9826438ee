import Foundation
import Testing

@testable import CourierDemoServer

/// The demo API's OpenAPI document (`Sources/CourierDemoClient/openapi.json`, from which the demo client is
/// generated) describes every route the server serves, and nothing else.
@Suite struct OpenAPIDocumentTests {
  /// The methods an OpenAPI path item can name.
  static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

  @available(macOS 14, iOS 17, tvOS 17, *)
  static func document() throws -> [String: Any] {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/CourierDemoClient/openapi.json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    return try #require(object as? [String: Any])
  }

  /// `"GET /products/{id}"` for every operation of the document.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func documentedOperations() throws -> Set<String> {
    let paths = try #require(try document()["paths"] as? [String: [String: Any]])
    var operations = Set<String>()
    for (path, item) in paths {
      for method in item.keys where methods.contains(method) {
        operations.insert("\(method.uppercased()) \(path)")
      }
    }
    return operations
  }

  /// `"GET /products/{id}"` for every route the server answers (`HEAD` is implied by `GET`); echo answers any
  /// method at `/echo` and below, which the document gives as `/echo` and `/echo/{path}` with every method it can.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func servedOperations() -> Set<String> {
    let routes = DemoRouter.routes(state: DemoState(accessTokenTTL: .seconds(60)))
    var operations = Set(routes.map { "\($0.method.rawValue) \($0.pattern)" })
    for path in ["/echo", "/echo/{path}"] {
      for method in methods { operations.insert("\(method.uppercased()) \(path)") }
    }
    return operations
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func everyRouteIsDocumentedAndNothingElse() throws {
    let documented = try Self.documentedOperations()
    let served = Self.servedOperations()
    #expect(served.subtracting(documented).sorted() == [], "served but not documented")
    #expect(documented.subtracting(served).sorted() == [], "documented but not served")
    #expect(documented.count > 50)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func theDocumentIsOpenAPI31WithUniqueOperationIDs() throws {
    let document = try Self.document()
    #expect(document["openapi"] as? String == "3.1.0")
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let ids = paths.values.flatMap { item in
      item.compactMap { method, operation in
        Self.methods.contains(method) ? (operation as? [String: Any])?["operationId"] as? String : nil
      }
    }
    #expect(ids.count == Set(ids).count)
    #expect(ids.count == (try Self.documentedOperations()).count, "every operation has an operationId")
  }
}
