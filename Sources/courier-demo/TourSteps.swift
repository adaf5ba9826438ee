import Courier
import CourierStyles
import Foundation
import HTTPTypes

/// The tour: one short, printed step per feature, in the order a newcomer meets them.
@available(macOS 14, iOS 17, tvOS 17, *)
struct TourSteps {
  let client: APIClient

  let baseURL: URL
  let transport: any HTTPTransport

  init(baseURL: URL, transport: any HTTPTransport) {
    self.baseURL = baseURL
    self.transport = transport
    client = APIClient(baseURL: baseURL) { configuration in
      configuration.transport = transport
      configuration.serverErrorType = DemoAPIError.self
    }
  }

  func run() async throws {
    step("Log in with JSON credentials")
    let tokens = try await client.value(
      Endpoint<Tokens>.post("/auth/login", body: Credentials(email: "demo@courier.dev", password: "secret123")))
    print("  got a \(tokens.tokenType) token that expires in \(tokens.expiresIn) s")

    step("Read the profile with the bearer token")
    let me = try await client.value(Endpoint<User>.get("/users/me").header(.authorization(bearer: tokens.accessToken)))
    print("  \(me.name) <\(me.email)>, member since \(me.createdAt.formatted(date: .abbreviated, time: .omitted))")

    step("Filter, sort and page products with a Codable query")
    let filter = ProductFilter(category: "shoes", minPrice: 20, maxPrice: 150, sort: "-price", page: 1, limit: 3)
    let firstPage = try await client.send(Endpoint<ProductPage>.get("/products").query(filter))
    print("  GET \(firstPage.request.path ?? "")")
    for product in firstPage.value.items { print("  · \(product.name) — $\(product.price)") }
    print("  \(firstPage.value.total) matching, more pages: \(firstPage.value.hasMore)")
    let secondPage = try await client.value(Endpoint<ProductPage>.get("/products").query(filter.page(2)))
    print("  page 2 starts with \(secondPage.items.first?.name ?? "nothing")")

    step("A 404 with the endpoint's own message")
    do {
      try await client.send(Endpoint<Product>.get("/products/999").message(for: .notFound, "That product is gone."))
    } catch let error as CourierError {
      print(
        "  \(error.status?.code ?? 0): \(error.userMessage)  (server said: \(error.serverError?.errorMessage ?? "-"))")
    }

    step("A 409 with the server's error body decoded")
    do {
      let signup = Signup(email: "demo@courier.dev", password: "longenough", name: "Demo Again")
      try await client.send(Endpoint<User>.post("/signup", body: signup).expect(.created))
    } catch let error as CourierError {
      let body = error.serverError(as: DemoAPIError.self)
      print("  \(error.status?.code ?? 0) \(body?.code ?? "?"): \(error.userMessage)")
    }

    step("A form post (application/x-www-form-urlencoded)")
    let formTokens = try await client.value(
      Endpoint<Tokens>.post("/auth/login").body(form: ["email": "demo@courier.dev", "password": "secret123"]))
    print("  logged in again with a form body, token \(formTokens.accessToken.prefix(8))…")

    step("A delete that expects 204 No Content")
    let deleted = try await client.send(Endpoint<EmptyBody>.delete("/posts/3").expect(.noContent))
    print("  \(deleted.status.code) \(deleted.status.phrase), \(deleted.data.count) body bytes")

    step("Reserved characters and emoji survive the query string")
    let tricky: QueryParameters = ["q": "a&b=c+d #1/2?", "emoji": "👍🏽 ok", "tags": ["x y", "z"]]
    let echo = try await client.value(Endpoint<Echo>.get("/echo/search").query(tricky))
    print("  sent:     ?\(echo.rawQuery ?? "")")
    print("  received: \(echo.query.map { "\($0[0])=\($0[1])" }.joined(separator: "  "))")

    step("An enum of endpoints, sent directly")
    let product = try await client.value(ShopAPI.product(id: 7), as: Product.self)
    print("  ShopAPI.product(id: 7) → \(product.name) in \(product.category)")

    step("Typed errors for the network itself")
    let started = ProcessInfo.processInfo.systemUptime
    do {
      try await client.send(Endpoint<EmptyBody>.get("/slow").query(["ms": 2000]).timeout(0.3))
    } catch let error as CourierError {
      let elapsed = ProcessInfo.processInfo.systemUptime - started
      print("  timeout after 0.3 s → isTimeout: \(error.isTimeout), retryable: \(error.isRetryable)")
      print(
        "  one deadline for the whole call, kept by Courier: it ended in \(elapsed < 1 ? "under" : "over") a second")
    }
    var offline = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
    offline.port = 9  // the discard port: nothing listens on it here
    let refused = APIClient(baseURL: offline.url) { $0.transport = transport }
    let dialled = ProcessInfo.processInfo.systemUptime
    let starts = StartCount()
    do {
      try await refused.send(Endpoint<EmptyBody>.get("/ping").timeout(30).onTransportStart { await starts.add() })
    } catch let error as CourierError {
      let elapsed = ProcessInfo.processInfo.systemUptime - dialled
      print(
        "  a refused connection → isNoConnection: \(error.isNoConnection), reported "
          + (elapsed < 1 ? "at once, not after the 30 s timeout" : "after \(Int(elapsed)) s"))
      print("  its start handler ran \(await starts.count) times: nothing went out, so no spinner")
    }

    try await runInterceptorSteps()
    try await runRedirectSteps()
    try await runCacheSteps()
    try await runOutboxSteps()
    try await runTransferSteps()
    try await runOpenAPISteps()
    try await runStyleSteps()
    try await runSecuritySteps()
    try await runTLSSteps()
    try await runCombineSteps()
    try await runObservabilitySteps()
  }

  func step(_ title: String) {
    print("\n▸ \(title)")
  }
}

/// Counts the times a start handler ran.
@available(macOS 14, iOS 17, tvOS 17, *)
actor StartCount {
  private(set) var count = 0

  func add() { count += 1 }
}
