// The code samples of the articles, compiled. Each sample is copied here as it appears in its article (less its
// `import` lines, which are at the top of this file); `DocumentationSampleTests` fails when an article's sample is not
// found here. This target is built by `swift build` and never run.
import Courier
import CourierAsyncHTTPClient
import CourierObservability
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// GettingStarted.md.
enum GettingStartedSamples {
  /// The server's error body of the later samples.
  struct APIErrorBody: ServerErrorResponse {
    let code: String
    let error: String
    var errorMessage: String? { error }
  }

  static func showOfflineBanner() {}
  static func showAlert(_ message: String) {}

  /// Creating a client.
  static func configure() async throws {

    struct APIErrorBody: ServerErrorResponse {
      let code: String
      let error: String
      var errorMessage: String? { error }
    }

    let client = APIClient(baseURL: URL(string: "https://api.example.com/v1")) {
      $0.serverErrorType = APIErrorBody.self  // decoded into CourierError.serverError
      $0.timeout = 30
    }
    _ = client
  }

  /// Describing endpoints.
  static func describe(newUser: Signup) async throws {
    struct ProductFilter: Encodable, Sendable {
      var category: String?
      var minPrice: Double?
      var page = 1
    }

    let products = Endpoint<ProductPage>.get("/products")
      .query(ProductFilter(category: "shoes", minPrice: 20))  // ?category=shoes&minPrice=20&page=1

    let signup = Endpoint<User>.post("/signup", body: newUser)
      .expect(.created)
      .message(for: .conflict, "That email is already registered")

    let delete = Endpoint<EmptyBody>.delete("/posts/3").expect(.noContent)
    _ = (products, signup, delete)
  }

  /// A literal query.
  static func buildQuery() async throws {
    var query: QueryParameters = ["page": 2, "tags": ["new", "sale"], "filter": ["min": 10]]
    query["page"] = 3  // replaces in place
    query["tags"] = nil  // removes
    _ = query
  }

  /// QueryParameters values held in variables.
  static func queryFromVariables(searchField: SearchField, nextPage: Int?, selectedTags: [String]) async throws {
    let text = searchField.text ?? ""
    let page: Int? = nextPage
    let search = Endpoint<[Product]>.get("/search").query("q", text).query("page", page)
    let filters = QueryParameters(["q": text, "page": page, "tags": selectedTags])
    _ = (search, filters)
  }

  /// Sending.
  static func send(client: APIClient, products: Endpoint<ProductPage>, signup: Endpoint<User>) async throws {
    let page = try await client.value(products)  // just the value
    let response = try await client.send(signup)  // value, raw bytes, HTTPResponse, HTTPRequest
    _ = (page, response)
  }

  /// Handling errors.
  static func handleErrors(client: APIClient, signup: Endpoint<User>) async throws {
    do {
      try await client.send(signup)
    } catch let error as CourierError {
      if error.isCancellation { return }
      if error.isNoConnection { showOfflineBanner() }
      print(error.status?.code ?? 0, error.serverError(as: APIErrorBody.self)?.code ?? "")
      showAlert(error.userMessage)  // "That email is already registered"
    }
  }

  /// Signing in, with a token that is refreshed and kept in a file.
  static func signIn(authClient: APIClient, appSupport: URL, credentials: Signup) async throws {
    let tokens = TokenStore.file(at: appSupport.appendingPathComponent("credentials.json"))
    let client = APIClient(baseURL: URL(string: "https://api.example.com/v1")) { configuration in
      configuration.interceptors = [
        AuthInterceptor(store: tokens) { old in
          let pair = try await authClient.value(
            Endpoint<Tokens>.post("/auth/refresh", body: ["refreshToken": old.refreshToken ?? ""]).asTokenRefresh())
          return AuthToken(accessToken: pair.accessToken, refreshToken: pair.refreshToken)
        }
      ]
    }
    let pair = try await client.value(Endpoint<Tokens>.post("/auth/login", body: credentials).withoutAuthentication())
    try await tokens.save(AuthToken(accessToken: pair.accessToken, refreshToken: pair.refreshToken))
  }

  /// An enum of endpoints.
  static func sendAnEnum(client: APIClient) async throws {
    enum ShopAPI: EndpointConvertible {
      case product(id: Int)
      var path: String {
        switch self {
        case .product(let id): "/products/\(id)"
        }
      }
    }
    let product = try await client.value(ShopAPI.product(id: 7), as: Product.self)
    _ = product
  }

  /// An attribute of your own.
  static func declareAnAttribute(order: Order) async throws {
    enum Priority: AttributeKey {
      static let defaultValue = 0
    }

    struct PriorityHeader: Interceptor {
      func intercept(
        _ request: HTTPRequest, body: BodyStream?, context: CallContext, next: Next
      ) async throws
        -> (HTTPResponse, BodyStream)
      {
        var request = request
        request.headerFields[HTTPField.Name("X-Priority")!] = "\(context[Priority.self])"
        return try await next(request, body, context)
      }
    }

    let urgent = Endpoint<Order>.post("/orders", body: order).attribute(Priority.self, 2)
    _ = (urgent, PriorityHeader())
  }
}

enum HTTPSemanticsSamples {
  /// A redirect policy.
  static func redirects(api: URL) async throws {
    let client = APIClient(baseURL: api) {
      $0.redirects = .follow(max: 5, removingAcrossOrigins: [HTTPField.Name("X-Api-Key")!])
    }
    let raw = try await client.send(Endpoint<Data>.get("/moved").redirects(.none).expectAnyStatus())
    _ = raw
  }

  /// Cookies.
  static func cookies(api: URL, cookiesFile: URL) async throws {
    let jar = try CookieJar(persistingTo: cookiesFile)
    let client = APIClient(baseURL: api) { $0.cookies = jar }
    let stateless = APIClient(baseURL: api) { $0.cookies = nil }
    _ = (client, stateless)
  }
}

enum SecuritySamples {
  /// Allowing plain http.
  static func cleartext() async throws {
    let client = APIClient(baseURL: URL(string: "http://printer.local")) {
      $0.cleartextHosts = ["printer.local", "*.lan"]
    }
    _ = client
  }

  /// Trusting a private CA.
  static func serverTrust(api: URL, privateCAPEM: String) async throws {
    var configuration = AsyncHTTPClientTransport.Configuration()
    try configuration.trust(.roots(pem: privateCAPEM))
    let client = APIClient(baseURL: api) { $0.transport = AsyncHTTPClientTransport(configuration: configuration) }
    _ = client
  }

  /// Pinning a host's public keys.
  static func pinning(api: URL, privateCAPEM: String, currentKey: String, backupKey: String) throws {
    let policy = try ServerTrustPolicy.roots(pem: privateCAPEM, includingSystemRoots: true)
      .pinning("api.example.com", spkiSHA256: [currentKey, backupKey])
    let transport = try URLSessionTransport(serverTrust: policy)
    let client = APIClient(baseURL: api) { $0.transport = transport }
    _ = client
  }
}

enum ServerSentEventsSamples {
  struct Prompt: Encodable, Sendable { var text = "" }

  /// Raw events.
  static func events(client: APIClient) async throws {
    for try await event in client.events(.get("/notifications")) {
      print(event.id, event.event, event.data)
    }
  }

  /// Decoded events.
  static func decodedEvents(client: APIClient, prompt: Prompt) async throws {
    struct Token: Decodable, Sendable { var text: String }

    for try await token in client.events(.post("/completions").body(json: prompt), of: Token.self) {
      print(token.text, terminator: "")
    }
  }

  /// Reconnection policies.
  static func reconnection(client: APIClient) async throws {
    let events = client.events(.get("/feed"), reconnectDelay: 1, maxReconnections: nil)  // for ever
    let once = client.events(.get("/feed"), maxReconnections: 0)
    _ = (events, once)
  }
}

enum TransfersSamples {
  @MainActor final class ProgressView {
    var progress = 0.0
  }

  static func handle(_ event: Event) {}

  /// A multipart upload with progress.
  static func upload(client: APIClient, videoURL: URL) async throws {
    var form = MultipartFormData()
    form.append("Holiday", name: "title")
    form.append(fileAt: videoURL, name: "video")  // MIME type from the extension; size known up front

    let upload = Endpoint<UploadReport>.post("/upload")
      .body(.multipart(form))
      .onUploadProgress { progress in print(progress) }  // "12582912 of 25166094 bytes (50%)"
    let report = try await client.value(upload)
    _ = report
  }

  /// Progress as an async sequence.
  static func watchProgress(client: APIClient, form: MultipartFormData, bar: ProgressView) async throws {
    let upload = client.transfer(Endpoint<UploadReport>.post("/upload").body(.multipart(form)))
    Task { @MainActor in
      for await progress in upload.uploadProgress { bar.progress = progress.fraction ?? 0 }
    }
    let report = try await upload.value
    _ = report
  }

  /// A streamed response.
  static func stream(client: APIClient) async throws {
    let stream = try await client.stream(Endpoint<Data>.get("/events"))
    for try await event in stream.jsonLines(of: Event.self) {
      handle(event)
    }
  }

  /// A download.
  static func download(client: APIClient, archiveURL: URL, expectedDigest: String) async throws {
    let result = try await client.download(
      Endpoint<Data>.get("/files/archive.zip").onDownloadProgress { print($0) },
      to: archiveURL,
      sha256: expectedDigest)
    print(result.bytes, result.resumptions)
  }
}

enum HTTPCacheSamples {
  /// A cache with the offline fallback.
  static func cache(api: URL) async throws {
    let client = APIClient(baseURL: api) {
      $0.interceptors = [CacheInterceptor(store: InMemoryCacheStore(), policy: .offlineFallback)]
    }
    let feed = try await client.send(Endpoint<Feed>.get("/feed"))
    print(feed.cacheStatus ?? .miss)
  }
}

enum ObservabilitySamples {
  /// Tracing and metrics.
  static func interceptors(api: URL) async throws {

    let client = APIClient(baseURL: api) { configuration in
      configuration.interceptors = [TracingInterceptor(), MetricsInterceptor()] + configuration.interceptors
    }
    _ = client
  }
}

enum ReadMeSamples {
  struct ProductFilter: Encodable, Sendable {
    var category: String
  }

  /// Quick start.
  static func quickStart(token: String, signup: Signup) async throws {
    let client = APIClient(baseURL: URL(string: "https://api.example.com/v1"))
    let user: User = try await client.value(.get("/users/me").header(.authorization(bearer: token)))
    let page = try await client.value(Endpoint<ProductPage>.get("/products").query(ProductFilter(category: "shoes")))
    try await client.send(Endpoint<EmptyBody>.delete("/posts/3").expect(.noContent))
    let created = try await client.send(Endpoint<User>.post("/signup", body: signup).expect(.created))
    _ = (user, page, created)
  }

  /// Testing with stubs.
  static func testing(feed: Feed) async throws {

    let transport = StubTransport(
      .get("/users/:id").reply(.json(User(id: 1, name: "Ada"))),
      .get("/feed").reply(.status(.serviceUnavailable), .json(feed))  // 503, then 200
    )
    let client = APIClient.testing(transport: transport) {
      $0.interceptors = [RetryInterceptor(clock: TestCallClock())]
    }
    let user = try await client.value(Endpoint<User>.get("/users/1"))
    let items = try await client.value(Endpoint<Feed>.get("/feed"))  // retried once, without waiting
    #expect(transport.requests.map(\.path) == ["/users/1", "/feed", "/feed"])
    _ = (user, items)
  }
}
