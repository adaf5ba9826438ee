// The code samples of the articles, compiled. Each sample is copied here as it appears in its article (less its
// `import` lines, which are at the top of this file); `DocumentationSampleTests` fails when an article's sample is not
// found here. This target is built by `swift build` and never run.
import Courier
import CourierStyles
import Foundation

/// ChoosingAStyle.md.
enum ChoosingAStyleSamples {
  /// A signed-in session of the app.
  struct Session {
    func start(_ tokens: Tokens) {}
  }

  static func showError(_ message: String) {}

  /// An endpoint.
  static func endpoint(client: APIClient, category: String) async throws {
    let page = try await client.value(
      Endpoint<ProductPage>.get("/products").query("category", category).query("limit", 2))
    _ = page
  }

  /// A service over the client.
  static func service(client: APIClient) async throws {
    struct ProductService {
      let client: APIClient
      func products(in category: String) async throws -> ProductPage {
        try await client.request(endpoint: "/products", queryItems: [URLQueryItem(name: "category", value: category)])
      }
    }
    let books = try await ProductService(client: client).products(in: "books")
    _ = books
  }

  /// A resource.
  static func resource(client: APIClient) async throws {
    struct BooksResource: APIResource {
      typealias ModelType = [Product]
      var path: String { "/products" }
      var queryItems: [URLQueryItem] { [URLQueryItem(name: "category", value: "books")] }
      var wrapperKey: String? { "items" }
    }
    let books = try await client.value(BooksResource())
    _ = books
  }

  /// A router of endpoint enums.
  static func router(client: APIClient) async throws {
    enum ShopAPI: TargetType {
      case products(category: String)
      var path: String { "/products" }
      var task: EndpointTask {
        switch self {
        case .products(let category): .requestParameters(url: ["category": .string(category)])
        }
      }
    }
    let page = try await TargetRouter<ShopAPI>(client: client).request(
      .products(category: "books"), as: ProductPage.self)
    _ = page
  }

  /// A data loader.
  static func dataLoader(baseURL: URL) async throws {
    let loader = DataLoader(baseURL: baseURL)
    let page: ProductPage = try await loader.dataRequest(
      url: URL(string: "/products")!, headers: [.acceptLanguage(["fr", "en"])],
      parameters: .query(["category": "books", "limit": 2]))
    let raw: Data = try await loader.dataRequest(url: URL(string: "/products/7")!)
    _ = (page, raw)
  }

  /// A fluent builder with callbacks.
  static func builder(client: APIClient, email: String, password: String, session: Session) async throws {
    struct AuthController {
      func login(email: String, password: String) -> APIRequest<Tokens> {
        APIRequest("auth/login").method(.post).basicAuth(email: email, password: password)
      }
    }
    client.call(AuthController().login(email: email, password: password))
      .onSuccess { tokens in session.start(tokens) }
      .onNotAuthorized { _ in showError("Wrong email or password") }
      .execute()
  }
}
