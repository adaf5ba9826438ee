import Courier
import CourierDemoClient
import CourierOpenAPI
import Foundation

/// The tour's OpenAPI step: the client generated from the demo API's document, sent through Courier.
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runOpenAPISteps() async throws {
    step("The client generated from the demo API's OpenAPI document, sent through Courier")
    let tokens = TokenStore.inMemory()
    let refresher = client
    let auth = AuthInterceptor(store: tokens) { old in
      let pair = try await refresher.value(
        Endpoint<Tokens>.post("/auth/refresh", body: ["refreshToken": old.refreshToken ?? ""]).asTokenRefresh())
      return AuthToken(accessToken: pair.accessToken, refreshToken: pair.refreshToken)
    }
    let api = APIClient(baseURL: baseURL) { configuration in
      configuration.transport = transport
      configuration.interceptors = [
        auth, CacheInterceptor(store: InMemoryCacheStore()),
      ]
    }
    let generated = Client(
      serverURL: baseURL,
      transport: APIClientTransport(client: api) { operationID, endpoint in
        switch operationID {
        case "login", "signUp": endpoint.withoutAuthentication()
        case "refreshToken": endpoint.asTokenRefresh()
        default: endpoint
        }
      })
    let pair = try await generated.login(body: .json(.init(email: "demo@courier.dev", password: "secret123")))
      .ok.body.json
    try await tokens.save(AuthToken(accessToken: pair.accessToken, refreshToken: pair.refreshToken))
    try await client.send(Endpoint<EmptyBody>.post("/admin/expire-tokens"))
    let me = try await generated.getCurrentUser().ok.body.json
    print("  generated.login, then getCurrentUser with an expired token (Courier refreshed it): \(me.name)")

    let page = try await generated.listProducts(query: .init(category: "shoes", sort: ._hyphen_price, limit: 3))
      .ok.body.json
    let handWritten = try await client.value(
      Endpoint<ProductPage>.get("/products").query(["category": "shoes", "sort": "-price", "limit": 3]))
    print("  generated.listProducts:   \(page.items.map(\.name).joined(separator: ", "))")
    print("  the hand-written Endpoint: \(handWritten.items.map(\.name).joined(separator: ", "))")

    if case .notFound(let missing) = try await generated.getProduct(path: .init(id: 999)) {
      print("  getProduct(999) → .notFound: \(try missing.body.json.error)")
    }

    let key = UUID().uuidString
    let query = Operations.ReadCacheResource.Input.Query(cc: "max-age=60")
    let first = try await generated.readCacheResource(path: .init(key: key), query: query).ok.body.json
    let second = try await generated.readCacheResource(path: .init(key: key), query: query).ok.body.json
    print("  the same GET twice: origin hit #\(first.hit), then #\(second.hit) again, from Courier's cache")
  }
}
