import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import Testing

// The samples of the "Choosing a style" article, kept compiling and passing here against the demo API.

@available(macOS 14, iOS 17, tvOS 17, *)
private struct ProductService {
  let client: APIClient
  func products(in category: String) async throws -> ProductPage {
    try await client.request(endpoint: "/products", queryItems: [URLQueryItem(name: "category", value: category)])
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct BooksResource: APIResource {
  typealias ModelType = [Product]
  var path: String { "/products" }
  var queryItems: [URLQueryItem] { [URLQueryItem(name: "category", value: "books")] }
  var wrapperKey: String? { "items" }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private enum ShopAPI: TargetType {
  case products(category: String)
  var path: String { "/products" }
  var task: EndpointTask {
    switch self {
    case .products(let category): .requestParameters(url: ["category": .string(category)])
    }
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct AuthController {
  func login(email: String, password: String) -> APIRequest<Tokens> {
    APIRequest("auth/login").method(.post).basicAuth(email: email, password: password)
  }
}

@Suite(.hangGuard) struct ChoosingAStyleArticleTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func everyStyleReachesTheSameProducts(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, server in
      let category = "books"
      let page = try await client.value(
        Endpoint<ProductPage>.get("/products").query("category", category).query("limit", 2))
      #expect(page.items.count == 2)
      #expect(page.items.allSatisfy { $0.category == "books" })

      let fromService = try await ProductService(client: client).products(in: "books")
      let fromResource = try await client.value(BooksResource())
      let fromRouter = try await TargetRouter<ShopAPI>(client: client).request(
        .products(category: "books"), as: ProductPage.self)
      #expect(fromService.items == fromRouter.items)
      #expect(fromResource == fromService.items)

      let loader = DataLoader(baseURL: server.baseURL) { $0.transport = server.transport }
      let loaded: ProductPage = try await loader.dataRequest(
        url: URL(string: "/products")!, headers: [.acceptLanguage(["fr", "en"])],
        parameters: .query(["category": "books", "limit": 2]))
      let raw: Data = try await loader.dataRequest(url: URL(string: "/products/7")!)
      #expect(loaded.items == page.items)
      #expect(try JSONDecoder().decode(Product.self, from: raw).id == 7)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func theBuilderWithCallbacksLogsInAndReportsAWrongPassword(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let outcome = Locked<[String]>()
      let good = client.call(AuthController().login(email: "demo@courier.dev", password: "secret123"))
        .callbacks(on: .nonisolated)
        .onSuccess { tokens in outcome.append("token \(tokens.tokenType)") }
        .onNotAuthorized { _ in outcome.append("not authorized") }
        .execute()
      await good.finished()
      let bad = client.call(AuthController().login(email: "demo@courier.dev", password: "wrong"))
        .callbacks(on: .nonisolated)
        .onSuccess { _ in outcome.append("token") }
        .onNotAuthorized { _ in outcome.append("not authorized") }
        .execute()
      await bad.finished()
      #expect(outcome.values == ["token Bearer", "not authorized"])
    }
  }
}
