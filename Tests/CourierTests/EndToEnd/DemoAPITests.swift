import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// The client against the real demo API over each transport, on 127.0.0.1.
@Suite struct DemoAPITests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func loginThenProfileWithBearerToken(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let tokens = try await client.value(Endpoint<Tokens>.post("/auth/login", body: Credentials()))
      #expect(tokens.tokenType == "Bearer")
      let me = try await client.value(
        Endpoint<DemoUser>.get("/users/me").header(.authorization(bearer: tokens.accessToken)))
      #expect(me.email == "demo@courier.dev")
      #expect(me.createdAt == ISO8601DateFormatter().date(from: "2024-01-15T09:30:00Z"))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func loginWithBasicAuthAndWithAForm(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let basic = try await client.value(
        Endpoint<Tokens>("auth/login").method(.post).header(
          .authorization(username: "demo@courier.dev", password: "secret123")))
      #expect(!basic.accessToken.isEmpty)
      let form = try await client.value(
        Endpoint<Tokens>.post("/auth/login").body(form: ["email": "demo@courier.dev", "password": "secret123"]))
      #expect(!form.accessToken.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func unauthorizedProfileIsTyped(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<DemoUser>.get("/users/me"))
      }
      #expect(error?.status == .unauthorized)
      #expect(error?.serverError(as: DemoError.self)?.code == "unauthorized")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func patchProfile(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let tokens = try await client.value(Endpoint<Tokens>.post("/auth/login", body: Credentials()))
      let updated = try await client.value(
        Endpoint<DemoUser>.patch("/users/me", body: ["name": "Renamed"]).header(
          .authorization(bearer: tokens.accessToken)))
      #expect(updated.name == "Renamed")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func filteredSortedPaginatedProducts(_ transport: TransportKind) async throws {
    struct Filter: Encodable, Sendable {
      var category = "books"
      var minPrice: Double? = 10
      var maxPrice: Double? = nil
      var sort = "-price"
      var page = 1
      var limit = 4
    }
    try await withDemoServer(transport) { client, _ in
      let first = try await client.send(Endpoint<ProductPage>.get("/products").query(Filter()))
      #expect(first.request.path == "/products?category=books&minPrice=10.0&sort=-price&page=1&limit=4")
      #expect(first.value.items.count == 4)
      #expect(first.value.items.allSatisfy { $0.category == "books" && $0.price >= 10 })
      #expect(first.value.items.map(\.price) == first.value.items.map(\.price).sorted(by: >))
      #expect(first.value.hasMore == (first.value.total > 4))
      var all: [Product] = []
      var page = 1
      while true {
        var filter = Filter()
        filter.page = page
        let next = try await client.value(Endpoint<ProductPage>.get("/products").query(filter))
        all += next.items
        if !next.hasMore { break }
        page += 1
      }
      #expect(all.count == first.value.total)
      #expect(Set(all.map(\.id)).count == all.count)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func notFoundCarriesCustomMessageAndDecodedServerError(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<Product>.get("/products/999").message(for: .notFound, "User not found"))
      }
      #expect(error?.status == .notFound)
      #expect(error?.userMessage == "User not found")
      #expect(error?.serverError(as: DemoError.self) == DemoError(code: "not_found", error: "Product 999 not found"))
      #expect(error.flatMap { $0.body.map { String(decoding: $0, as: UTF8.self) } }?.contains("Product 999") == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func conflictAndValidationBodiesAreDecoded(_ transport: TransportKind) async throws {
    struct Signup: Encodable, Sendable {
      var email: String
      var password: String
      var name = "New"
    }
    try await withDemoServer(transport) { client, _ in
      let created = try await client.send(
        Endpoint<DemoUser>.post("/signup", body: Signup(email: "new@courier.dev", password: "long enough")).expect(
          .created))
      #expect(created.status == .created)
      #expect(created.value.email == "new@courier.dev")
      #expect(created.headerFields[.location] == "/users/\(created.value.id)")

      let conflict = await #expect(throws: CourierError.self) {
        try await client.send(
          Endpoint<DemoUser>.post("/signup", body: Signup(email: "demo@courier.dev", password: "12345678")))
      }
      #expect(conflict?.status == .conflict)
      #expect(conflict?.serverError(as: DemoError.self)?.code == "email_taken")
      #expect(conflict?.userMessage == "An account with this email already exists")

      let invalid = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<DemoUser>.post("/signup", body: Signup(email: "nope", password: "short")))
      }
      #expect(invalid?.status == .unprocessableContent)
      #expect((invalid?.serverError(as: DemoError.self)?.details ?? []).count >= 2)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func serverErrorBodyIsDecodedAndRetryable(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<EmptyBody>.get("/status/500"))
      }
      #expect(error?.status == .internalServerError)
      #expect(error?.serverError(as: DemoError.self)?.code == "status_500")
      #expect(error?.isRetryable == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func malformedJSONKeepsTheBody(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<Product>.get("/malformed-json"))
      }
      #expect(error?.kind == .decoding)
      #expect(error?.status == .ok)
      #expect(error?.body.map { String(decoding: $0, as: UTF8.self) } == #"{"id": 1, "name": "#)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func textAndEmptyResponses(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      #expect(try await client.value(Endpoint<String>.get("/text")) == "Grüße, 世界 👋")
      let empty = try await client.send(Endpoint<EmptyBody>.get("/empty").expect(.noContent))
      #expect(empty.data.isEmpty)
      let deleted = try await client.send(Endpoint<EmptyBody>.delete("/posts/3").expect(.noContent))
      #expect(deleted.status == .noContent)
      let again = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<EmptyBody>.delete("/posts/3"))
      }
      #expect(again?.status == .notFound)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func postCreatesWithLocation(_ transport: TransportKind) async throws {
    struct Post: Codable, Sendable {
      var id: Int?
      var title: String
      var body: String
    }
    try await withDemoServer(transport) { client, _ in
      let response = try await client.send(
        Endpoint<Post>.post("/posts", body: Post(title: "Hi", body: "There")).expect(.created))
      #expect(response.value.title == "Hi")
      #expect(response.headerFields[.location] != nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func malformedJSONRequestGetsA400NotACrash(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.send(
          Endpoint<Tokens>.post("/auth/login").body(Data("{\"email\": ".utf8), contentType: "application/json"))
      }
      #expect(error?.status == .badRequest)
      #expect(error?.serverError(as: DemoError.self) != nil)
      let stillUp = try await client.value(Endpoint<Product>.get("/products/1"))
      #expect(stillUp.id == 1)
    }
  }
}
