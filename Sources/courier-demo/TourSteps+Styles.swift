import Courier
import CourierStyles
import Foundation
import HTTPTypes

/// The tour's style steps: one call in each of the five API styles, then callbacks and environments.
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runStyleSteps() async throws {
    step("Style 1 — a client with services: request(endpoint:method:queryItems:headers:body:)")
    let products = StyleProductService(client: client)
    let garden = try await products.products(category: "garden", limit: 3)
    print("  ProductService → \(garden.items.map(\.name).joined(separator: ", ")) of \(garden.total)")
    let state: LoadingState<Product> = await LoadingState { try await products.product(id: 999) }
    print("  LoadingState for product 999: failed, \"\(state.errorMessage ?? "-")\"")

    step("Style 2 — a protocol-oriented resource unwrapping {\"items\": [...]}")
    let books = try await client.value(StyleBooksResource())
    print("  BooksResource → [Product] of \(books.count), first \(books.first?.name ?? "-")")
    let greeting = try await client.value(StyleGreetingResource())
    print("  a binary resource → \(greeting.data.count) bytes of \(greeting.mediaType ?? "?")")

    step("Style 3 — a Moya-style router: enum cases with tasks, cancellable")
    let router = TargetRouter<StyleShopAPI>(client: client)
    let page = try await router.send(.products(category: "games", page: 2), as: ProductPage.self)
    print("  .products(category: \"games\", page: 2) → GET \(page.request.path ?? "")")
    let (outcome, deliver) = AsyncStream.makeStream(of: Result<EmptyBody, CourierError>.self)
    let slow = router.request(.slow(milliseconds: 5_000), as: EmptyBody.self) { deliver.yield($0) }
    while router.inFlightCount == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
    router.cancel(slow)
    var results = outcome.makeAsyncIterator()
    if case .failure(let error) = await results.next() {
      print("  router.cancel(call) → \(error.kind), isCancellation: \(error.isCancellation)")
    }

    step("Style 4 — a DataLoader: dataRequest(url:method:headers:parameters:decoder:)")
    let loader = DataLoader(baseURL: nil) { $0.transport = transport }
    let raw: Data = try await loader.dataRequest(
      url: baseURL.appendingPathComponent("products/7"), headers: [.accept("application/json")])
    let product: Product = try await loader.dataRequest(url: baseURL.appendingPathComponent("products/7"))
    print("  \(raw.count) bytes as Data, or decoded: \(product.name) for $\(product.price)")

    step("Style 5 — a fluent builder grouped by controllers: StyleAPI.auth.login(...)")
    let login = try await client.send(StyleAPI.auth.login(email: "demo@courier.dev", password: "secret123"))
    let scheme = login.request.headerFields[.authorization]?.split(separator: " ").first ?? "-"
    print(
      "  \(login.request.method) \(login.request.path ?? "") with \(scheme) auth → a \(login.value.tokenType) token")
    do {
      try await client.send(StyleAPI.auth.login(email: "demo@courier.dev", password: "wrong"))
    } catch let error as CourierError {
      print("  wrong password → \(error.status?.code ?? 0): \(error.userMessage)")
    }

    step("Callbacks on the main actor, a specific handler before onError")
    let events = TourCallbackEvents()
    await client.call(Endpoint<User>.get("/users/me"))
      .onRequestStarted { events.record("started") }
      .onSuccess { user in events.record("success \(user.name)") }
      .onNotAuthorized { error in events.record("onNotAuthorized (\(error.status?.code ?? 0))") }
      .onError { _ in events.record("onError") }
      .execute()
      .finished()
    print("  \(await events.list.joined(separator: " → "))")

    step("Environments switched at run time")
    let environments = EnvironmentSwitcher(
      [
        .development(baseURL.appendingPathComponent("echo/dev")),
        .staging(baseURL.appendingPathComponent("echo/staging")),
      ],
      default: .development, launchOptions: EnvironmentLaunchOptions())
    let switching = APIClient(environment: environments) { $0.transport = transport }
    let before = try await switching.value(Endpoint<Echo>.get("/ping"))
    environments.select(.staging)
    let after = try await switching.value(Endpoint<Echo>.get("/ping"))
    print("  \(before.path) → select(.staging) → \(after.path)")
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct StyleProductService {
  let client: APIClient

  func products(category: String, limit: Int) async throws -> ProductPage {
    try await client.request(
      endpoint: "/products", method: .get,
      queryItems: [URLQueryItem(name: "category", value: category), URLQueryItem(name: "limit", value: "\(limit)")])
  }

  func product(id: Int) async throws -> Product {
    try await client.request(endpoint: "/products/\(id)")
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct StyleBooksResource: APIResource {
  typealias ModelType = [Product]
  var path: String { "/products" }
  var queryItems: [URLQueryItem] { [URLQueryItem(name: "category", value: "books")] }
  var wrapperKey: String? { "items" }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct StyleGreetingResource: APIResource {
  typealias ModelType = BinaryContent
  var path: String { "/text" }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private enum StyleShopAPI: TargetType {
  case products(category: String, page: Int)
  case slow(milliseconds: Int)

  var path: String {
    switch self {
    case .products: "/products"
    case .slow: "/slow"
    }
  }

  var task: EndpointTask {
    switch self {
    case .products(let category, let page):
      .requestParameters(url: ["category": .string(category), "page": .int(page)])
    case .slow(let milliseconds): .requestParameters(url: ["ms": .int(milliseconds)])
    }
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private enum StyleAPI {
  static let auth = StyleAuthController()
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct StyleAuthController {
  func login(email: String, password: String) -> APIRequest<Tokens> {
    APIRequest<Tokens>("auth/login")
      .method(.post)
      .basicAuth(email: email, password: password)
      .message(for: .unauthorized, "That email and password do not match.")
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
@MainActor private final class TourCallbackEvents {
  var list: [String] = []
  nonisolated init() {}
  func record(_ event: String) { list.append(event) }
}
