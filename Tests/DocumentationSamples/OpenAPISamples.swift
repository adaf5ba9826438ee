// The code samples of the articles, compiled. Each sample is copied here as it appears in its article (less its
// `import` lines, which are at the top of this file); `DocumentationSampleTests` fails when an article's sample is not
// found here. This target is built by `swift build` and never run.
import Courier
import CourierDemoClient
import CourierOpenAPI
import Foundation
import OpenAPIRuntime

enum OpenAPISamples {
  static func showOffline() {}

  /// A generated client over Courier.
  static func transport(serverURL: URL, tokens: any TokenProvider) async throws {

    let api = APIClient(baseURL: serverURL) { configuration in
      configuration.interceptors = [AuthInterceptor(provider: tokens), CacheInterceptor(store: InMemoryCacheStore())]
    }
    let client = Client(
      serverURL: serverURL,
      transport: APIClientTransport(client: api) { operationID, endpoint in
        switch operationID {
        case "login", "signUp": endpoint.withoutAuthentication()
        case "refreshToken": endpoint.asTokenRefresh()
        default: endpoint
        }
      })

    let page = try await client.listProducts(query: .init(category: "books", limit: 10)).ok.body.json
    _ = page
  }

  /// Errors of a generated client.
  static func errors(client: Client) async throws {
    do {
      _ = try await client.listPosts()
    } catch let error as ClientError {
      if let courier = error.underlyingError as? CourierError, courier.kind == .noConnection { showOffline() }
    }
  }
}
