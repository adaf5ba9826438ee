import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

// Style 3: a Moya-style router, an enum with a case per call and a task saying what each sends.

@available(macOS 14, iOS 17, tvOS 17, *)
private struct NewPost: Encodable, Sendable {
  var title: String
  var body: String
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct SearchQuery: Encodable, Sendable {
  var q: String
  var tags: [String]
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct BlogPost: Decodable, Sendable, Equatable {
  var id: Int
  var title: String
  var body: String
}

@available(macOS 14, iOS 17, tvOS 17, *)
private enum ShopAPI: TargetType {
  case login(Credentials)
  case formLogin(email: String, password: String)
  case products(category: String, page: Int)
  case createPost(NewPost)
  case draftPost(title: String)
  case search(SearchQuery, session: String)
  case slow(milliseconds: Int)

  var path: String {
    switch self {
    case .login, .formLogin: "/auth/login"
    case .products: "/products"
    case .createPost, .draftPost: "/posts"
    case .search: "/echo/search"
    case .slow: "/slow"
    }
  }

  var method: HTTPMethod {
    switch self {
    case .login, .formLogin, .createPost, .draftPost, .search: .post
    case .products, .slow: .get
    }
  }

  var headers: [HTTPHeader] { [HTTPHeader("X-Client", "router-tests")] }

  var task: EndpointTask {
    switch self {
    case .login(let credentials):
      .requestParameters(body: credentials)
    case .formLogin(let email, let password):
      .requestParameters(body: ["email": .string(email), "password": .string(password)], bodyEncoding: .form)
    case .products(let category, let page):
      .requestParameters(url: ["category": .string(category), "page": .int(page), "limit": 3])
    case .createPost(let post):
      .requestParameters(body: post)
    case .draftPost(let title):
      .requestParameters(body: ["title": .string(title), "body": "Draft", "tags": ["a", "b"], "pinned": false])
    case .search(let query, let session):
      .requestParametersAndHeaders(
        body: ["source": "router"], url: query,
        headers: [HTTPHeader("X-Session", session), HTTPHeader("X-Client", "search")])
    case .slow(let milliseconds):
      .requestParameters(url: ["ms": .int(milliseconds)])
    }
  }
}

/// A `task` written for `TargetType` on a plain `EndpointConvertible`: applied, never silently ignored, and the
/// conformance draws a deprecation warning (`Scripts/check-moved-requirements.sh` checks it). The conformance is
/// itself deprecated here so that the tests build without that warning.
private enum MovedTaskAPI {
  case search(String)
}

@available(*, deprecated, message: "draws the moved-task warning on purpose")
extension MovedTaskAPI: EndpointConvertible {
  var path: String { "/search" }
  var task: EndpointTask {
    if case .search(let text) = self { .requestParameters(url: ["q": .string(text)]) } else { .request }
  }
}

@Suite(.hangGuard) struct RouterStyleTests {
  @available(*, deprecated, message: "uses a conformance that draws the moved-task warning")
  @Test func aTaskOnAPlainEndpointConvertibleIsAppliedNotIgnored() throws {
    let client = APIClient(baseURL: URL(string: "https://api.example.com"))
    let request = try client.httpRequest(for: MovedTaskAPI.search("lamp shade").endpoint(as: EmptyBody.self))
    #expect(request.path == "/search?q=lamp%20shade")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func tasksSendTypedAndLiteralParameters(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let router = TargetRouter<ShopAPI>(client: client)
      let tokens = try await router.request(.login(Credentials()), as: Tokens.self)
      #expect(tokens.tokenType == "Bearer")
      let formTokens = try await router.send(
        .formLogin(email: "demo@courier.dev", password: "secret123"), as: Tokens.self)
      #expect(formTokens.request.headerFields[.contentType] == "application/x-www-form-urlencoded")

      let page = try await router.send(.products(category: "garden", page: 2), as: ProductPage.self)
      #expect(page.request.path == "/products?category=garden&page=2&limit=3")
      #expect(page.value.page == 2 && page.value.items.allSatisfy { $0.category == "garden" })
      #expect(page.request.headerFields[HTTPField.Name("X-Client")!] == "router-tests")

      let created = try await router.send(.createPost(NewPost(title: "Hello", body: "World")), as: BlogPost.self)
      #expect(created.status == .created)
      #expect(created.value.title == "Hello" && created.value.body == "World")

      let draft = try await router.request(.draftPost(title: "Literal"), as: BlogPost.self)
      #expect(draft.title == "Literal" && draft.body == "Draft")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func parametersAndHeadersReachTheServer(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let router = TargetRouter<ShopAPI>(client: client)
      let echo = try await router.request(
        .search(SearchQuery(q: "lamp shade", tags: ["new", "sale"]), session: "s-42"), as: Echo.self)
      #expect(echo.method == "POST")
      #expect(echo.rawQuery == "q=lamp%20shade&tags%5B%5D=new&tags%5B%5D=sale")
      #expect(echo.body == #"{"source":"router"}"#)
      #expect(echo.header("X-Session") == "s-42")
      #expect(echo.header("X-Client") == "search", "the task's header replaces the API's")
      #expect(echo.headers.filter { $0.first?.lowercased() == "x-client" }.count == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func cancellingOneCallLeavesTheOthersRunning(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let router = TargetRouter<ShopAPI>(client: client)
      let (outcome, deliver) = AsyncStream.makeStream(of: Result<EmptyBody, CourierError>.self)
      let doomed = router.request(.slow(milliseconds: 30_000), as: EmptyBody.self) { deliver.yield($0) }
      // Slow enough to be still running when the wait below ends on a stalled machine.
      let survivor = Task { try await router.request(.slow(milliseconds: 10_000), as: EmptyBody.self) }
      try await waitUntil("both calls are in flight") { router.inFlightCount == 2 }

      router.cancel(doomed)
      var results = outcome.makeAsyncIterator()
      guard case .failure(let error) = await results.next() else {
        Issue.record("the cancelled call did not fail")
        return
      }
      // Not cancelled, the call would have ended after the server's 30 s with a success.
      #expect(error.isCancellation)
      _ = try await survivor.value
      #expect(router.inFlightCount == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func cancelAllEndsEveryCallAndReportsItToCompletions(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let router = TargetRouter<ShopAPI>(client: client)
      let (results, delivered) = AsyncStream.makeStream(of: Result<EmptyBody, CourierError>.self)
      router.request(.slow(milliseconds: 30_000), as: EmptyBody.self) { delivered.yield($0) }
      router.request(.slow(milliseconds: 30_000), as: EmptyBody.self) { delivered.yield($0) }
      try await waitUntil("both calls are in flight") { router.inFlightCount == 2 }
      router.cancelAll()
      var cancellations = 0
      for await result in results.prefix(2) {
        if case .failure(let error) = result, error.isCancellation { cancellations += 1 }
      }
      // Calls not cancelled would have ended after the server's 30 s with successes.
      #expect(cancellations == 2)
      #expect(router.inFlightCount == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func theBaseURLFollowsTheEnvironment(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { _, server in
      let environments = EnvironmentSwitcher(
        [
          .development(server.baseURL.appendingPathComponent("echo/dev")),
          .staging(server.baseURL.appendingPathComponent("echo/staging")),
        ], default: .development, launchOptions: EnvironmentLaunchOptions())
      let router = TargetRouter<ShopAPI>(
        client: APIClient(environment: environments) { $0.transport = server.transport })
      let search = ShopAPI.search(SearchQuery(q: "x", tags: []), session: "s")
      let development = try await router.request(search, as: Echo.self)
      #expect(development.path == "/echo/dev/echo/search")
      environments.select(.staging)
      let staging = try await router.request(search, as: Echo.self)
      #expect(staging.path == "/echo/staging/echo/search")
    }
  }
}
