import CourierDemoClient
import CourierTestSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import Courier
@testable import CourierOpenAPI

/// The client generated from the demo API's OpenAPI document, sent through `APIClientTransport` over every transport:
/// it gets Courier's authentication, refresh and cache.
@Suite(.hangGuard) struct OpenAPIClientTests {
  /// The generated client over `api`, with sign-in and refresh marked as Courier's auth interceptor needs.
  static func generated(_ server: DemoServerFixture, over api: APIClient) -> CourierDemoClient.Client {
    CourierDemoClient.Client(
      serverURL: server.baseURL,
      transport: APIClientTransport(client: api) { operationID, endpoint in
        switch operationID {
        case "login", "signUp": endpoint.withoutAuthentication()
        case "refreshToken": endpoint.asTokenRefresh()
        default: endpoint
        }
      })
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func logsInAndReadsTheSignedInUser(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { _, server in
      let store = TokenStore.inMemory()
      let api = server.client { $0.interceptors = [AuthInterceptor(store: store, refresh: demoRefresh(server))] }
      let client = Self.generated(server, over: api)
      let tokens = try await client.login(body: .json(.init(email: "demo@courier.dev", password: "secret123")))
        .ok.body.json
      #expect(tokens.tokenType == "Bearer")
      try await store.save(AuthToken(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken))
      let me = try await client.getCurrentUser().ok.body.json
      #expect(me.email == "demo@courier.dev")
      #expect(me.name == "Demo User")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func listsProductsWithQueryParameters(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { plain, server in
      let client = Self.generated(server, over: plain)
      let page = try await client.listProducts(
        query: .init(category: "books", minPrice: 10, sort: ._hyphen_price, page: 1, limit: 3)
      ).ok
      let body = try page.body.json
      #expect(body.items.count == 3)
      #expect(body.items.allSatisfy { $0.category == "books" && $0.price >= 10 })
      #expect(body.items.map(\.price) == body.items.map(\.price).sorted(by: >))
      #expect(body.limit == 3)
      #expect(body.hasMore == (body.total > 3))
      #expect(page.headers.link?.contains("page=2") == body.hasMore)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aMissingProductIsTheTyped404(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { plain, server in
      let client = Self.generated(server, over: plain)
      let output = try await client.getProduct(path: .init(id: 9999))
      guard case .notFound(let notFound) = output else {
        Issue.record("expected .notFound, got \(output)")
        return
      }
      let error = try notFound.body.json
      #expect(error.code == "not_found")
      #expect(error.error.contains("9999"))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func concurrentCallsWithAnExpiredTokenRefreshItOnce(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { plain, server in
      let store = TokenStore.inMemory(try await plain.login())
      try await plain.send(Endpoint<EmptyBody>.post("/admin/expire-tokens"))
      let api = server.client { $0.interceptors = [AuthInterceptor(store: store, refresh: demoRefresh(server))] }
      let client = Self.generated(server, over: api)
      let names = try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<20 { group.addTask { try await client.getCurrentUser().ok.body.json.name } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(names.count == 20)
      #expect(Set(names) == ["Demo User"])
      let stats = try await client.getStats().ok.body.json
      #expect(stats.refreshCalls == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aRepeatedGETIsServedFromTheCache(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { plain, server in
      let api = server.client { $0.interceptors = [CacheInterceptor(store: InMemoryCacheStore())] }
      let client = Self.generated(server, over: api)
      let key = UUID().uuidString
      let query = Operations.ReadCacheResource.Input.Query(cc: "max-age=60")
      let first = try await client.readCacheResource(path: .init(key: key), query: query).ok.body.json
      let second = try await client.readCacheResource(path: .init(key: key), query: query).ok.body.json
      #expect(first.hit == 1)
      #expect(second.hit == 1, "the second answer is the stored first one")
      let hits = try await plain.value(Endpoint<Hits>.get("/cache/hits/\(key)")).hits
      #expect(hits == 1, "only one request reached the origin")
    }
  }

  @Test(arguments: TransportKind.allCases)
  func aTransportFailureCarriesTheCourierError(_ kind: TransportKind) async throws {
    let closed = try ClosedPort()
    try await withTransport(kind) { transport in
      let api = APIClient(configuration: .init(baseURL: closed.baseURL, transport: transport))
      let client = CourierDemoClient.Client(serverURL: closed.baseURL, transport: APIClientTransport(client: api))
      let error = await #expect(throws: ClientError.self) { _ = try await client.listPosts() }
      let courier = error?.underlyingError as? CourierError
      #expect(courier?.kind == .noConnection)
      #expect(error?.operationID == "listPosts")
    }
  }

  @Test func theEndpointCarriesTheRequestAsBuilt() async throws {
    var request = HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/upload/raw?name=a%20b")
    request.headerFields[.contentType] = "text/plain"
    let body = OpenAPIRuntime.HTTPBody("hello")
    let endpoint = try APIClientTransport.endpoint(
      for: request, body: body, baseURL: URL(string: "http://127.0.0.1:9/api/")!)
    #expect(endpoint.method == .put)
    #expect(endpoint.path == "http://127.0.0.1:9/api/upload/raw?name=a%20b")
    #expect(endpoint.headers.contains(HTTPHeader("Content-Type", "text/plain")))
    #expect(endpoint.accepts(.notFound))
    #expect(endpoint.accepts(.internalServerError))
  }
}
