import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

// Style 1: one APIClient, and services the app writes on top of `request(endpoint:method:queryItems:headers:body:)`.

@available(macOS 14, iOS 17, tvOS 17, *)
private struct UserService {
  let client: APIClient

  func login(email: String, password: String) async throws -> Tokens {
    try await client.request(
      endpoint: "/auth/login", method: .post, body: Credentials(email: email, password: password))
  }

  func profile(token: String) async throws -> DemoUser {
    try await client.request(endpoint: "/users/me", headers: [.authorization(bearer: token)])
  }

  func rename(to name: String, token: String) async throws -> DemoUser {
    try await client.request(
      endpoint: "/users/me", method: .patch, headers: [.authorization(bearer: token)], body: ["name": name])
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct ProductService {
  struct Filter {
    var category: String?
    var minPrice: Double?
    var sort = "id"
    var page = 1
    var limit = 4

    var queryItems: [URLQueryItem] {
      var items: [URLQueryItem] = []
      if let category { items.append(URLQueryItem(name: "category", value: category)) }
      if let minPrice { items.append(URLQueryItem(name: "minPrice", value: "\(minPrice)")) }
      items.append(URLQueryItem(name: "sort", value: sort))
      items.append(URLQueryItem(name: "page", value: "\(page)"))
      items.append(URLQueryItem(name: "limit", value: "\(limit)"))
      return items
    }
  }

  let client: APIClient

  func products(_ filter: Filter) async throws -> ProductPage {
    try await client.request(endpoint: "/products", method: .get, queryItems: filter.queryItems)
  }

  func allProducts(_ filter: Filter) async throws -> [Product] {
    var filter = filter
    var all: [Product] = []
    while true {
      let page = try await products(filter)
      all += page.items
      guard page.hasMore else { return all }
      filter.page += 1
    }
  }

  func product(id: Int) async throws -> Product {
    try await client.request(endpoint: "/products/\(id)")
  }
}

@Suite struct ClientServicesStyleTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func userServiceSignsInReadsAndRenames(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let users = UserService(client: client)
      let tokens = try await users.login(email: "demo@courier.dev", password: "secret123")
      let me = try await users.profile(token: tokens.accessToken)
      #expect(me.email == "demo@courier.dev")
      let renamed = try await users.rename(to: "Ada Lovelace", token: tokens.accessToken)
      #expect(renamed.name == "Ada Lovelace")
      #expect(try await users.profile(token: tokens.accessToken).name == "Ada Lovelace")

      let error = await #expect(throws: CourierError.self) {
        try await users.login(email: "demo@courier.dev", password: "wrong")
      }
      #expect(error?.status == .unauthorized)
      #expect(error?.userMessage == "Invalid email or password")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func productServiceFiltersSortsAndPages(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let products = ProductService(client: client)
      let filter = ProductService.Filter(category: "books", minPrice: 10, sort: "-price")
      let first = try await products.products(filter)
      #expect(first.items.count == min(4, first.total))
      #expect(first.items.allSatisfy { $0.category == "books" && $0.price >= 10 })
      #expect(first.items.map(\.price) == first.items.map(\.price).sorted(by: >))

      let all = try await products.allProducts(filter)
      #expect(all.count == first.total)
      #expect(Set(all.map(\.id)).count == all.count)
      #expect(try await products.product(id: all[0].id) == all[0])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func queriesHeadersAndBodiesInEveryShape(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let items = try await client.request(
        endpoint: "/echo/items",
        queryItems: [URLQueryItem(name: "q", value: "a&b c"), URLQueryItem(name: "flag", value: nil)],
        as: Echo.self)
      #expect(items.rawQuery == "q=a%26b%20c&flag")

      let query = try await client.request(
        endpoint: "/echo/query", method: .put, query: ["tags": ["x", "y"], "page": 2],
        headers: [.accept: "application/json", HTTPField.Name("X-Trace")!: "t-1"], body: ["note": "hi"],
        as: Echo.self)
      #expect(query.method == "PUT")
      #expect(query.queryPairs.map { "\($0.0)=\($0.1)" } == ["tags[]=x", "tags[]=y", "page=2"])
      #expect(query.header("X-Trace") == "t-1")
      #expect(query.header("Content-Type") == "application/json")
      #expect(query.body == #"{"note":"hi"}"#)

      let deleted = try await client.request(endpoint: "/posts/2", method: .delete, as: EmptyBody.self)
      #expect(deleted == EmptyBody())
      let text = try await client.request(endpoint: "/text", as: String.self)
      #expect(text == "Grüße, 世界 👋")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func loadingStateDrivesAScreen(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let products = ProductService(client: client)
      var state: LoadingState<ProductPage> = .idle
      #expect(state.value == nil && !state.isLoading)
      state = .loading
      #expect(state.isLoading)

      state = await LoadingState { try await products.products(.init(category: "books")) }
      let names = state.map { $0.items.map(\.name) }
      #expect(state.value?.items.isEmpty == false)
      #expect(names.value == state.value?.items.map(\.name))
      #expect(state.error == nil)

      let missing: LoadingState<Product> = await LoadingState { try await products.product(id: 999) }
      #expect(missing.value == nil)
      #expect(missing.courierError?.status == .notFound)
      #expect(missing.errorMessage == "Product 999 not found")
    }
  }
}
