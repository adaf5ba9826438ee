import Courier
import CourierStyles
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

// Style 2: protocol-oriented resources, each a type with its model, path and query.

@available(macOS 14, iOS 17, tvOS 17, *)
private struct ProductsResource: APIResource {
  typealias ModelType = [Product]
  var category: String
  var path: String { "/products" }
  var queryItems: [URLQueryItem] {
    [URLQueryItem(name: "category", value: category), URLQueryItem(name: "limit", value: "100")]
  }
  var wrapperKey: String? { "items" }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct ProductResource: APIResource {
  typealias ModelType = Product
  var id: Int
  var path: String { "/products/\(id)" }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct GreetingResource: APIResource {
  typealias ModelType = BinaryContent
  var path: String { "/text" }
}

@Suite struct ResourceStyleTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func resourcesBecomeTypedRequests(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let books = try await client.value(ProductsResource(category: "books"))
      #expect(!books.isEmpty)
      #expect(books.allSatisfy { $0.category == "books" })

      let first = try await client.value(ProductResource(id: books[0].id))
      #expect(first == books[0])

      let response = try await client.send(ProductsResource(category: "games").endpoint.header("X-Screen", "games"))
      #expect(response.request.path == "/products?category=games&limit=100")
      #expect(response.request.headerFields[HTTPField.Name("X-Screen")!] == "games")
      #expect(response.value.allSatisfy { $0.category == "games" })
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func binaryResourcesKeepTheirBytesAndContentType(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let greeting = try await client.send(GreetingResource())
      #expect(greeting.value.data == Data("Grüße, 世界 👋".utf8))
      #expect(greeting.value.contentType == "text/plain; charset=utf-8")
      #expect(greeting.value.mediaType == "text/plain")
      #expect(!greeting.value.isImage)
      #expect(greeting.request.headerFields[.accept] == "*/*")

      let csv = try await client.send(Endpoint<BinaryContent>.binary("/text", accept: "text/plain"))
      #expect(csv.request.headerFields[.accept] == "text/plain")
      #expect(csv.value.data.count == Data("Grüße, 世界 👋".utf8).count)

      let notAnImage = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<BinaryContent>.image("/text"))
      }
      #expect(notAnImage?.kind == .decoding)
      #expect(notAnImage?.request?.headerFields[.accept] == "image/*")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func wrapperDecodingNamesTheFullPathOfAFailure(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<[DemoUser]>.get("/products").unwrapping("items"))
      }
      #expect(error?.kind == .decoding)
      #expect(error?.codingPath == "items[0].email")

      let missingKey = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<[Product]>.get("/products").unwrapping("results"))
      }
      #expect(missingKey?.codingPath == "results")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func wrapperKeysMayBeDottedPathsAndKeepTheDateStrategy() async throws {
    struct Event: Decodable, Sendable, Equatable {
      var name: String
      var at: Date
    }
    let client = APIClient.testing(stubs: [
      .get("/events").reply(.body(#"{"data": {"events": [{"name": "launch", "at": 1714564800}]}, "page": 1}"#))
    ]) { $0.dateCodingStrategy = .secondsSince1970 }
    let events = try await client.value(Endpoint<[Event]>.get("/events").unwrapping("data.events"))
    #expect(events == [Event(name: "launch", at: Date(timeIntervalSince1970: 1_714_564_800))])
  }
}
