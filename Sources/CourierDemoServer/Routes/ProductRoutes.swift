#if canImport(Hummingbird)
import Hummingbird

/// `GET /products` and `GET /products/{id}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ProductRoutes: Sendable {
  /// The server state.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .get, pattern: "/products", handler: list),
      Route(method: .get, pattern: "/products/{id}", handler: product),
    ]
  }

  /// A filtered, sorted page of products, with `Link: <…>; rel="next"` when there are more.
  @Sendable func list(_ request: Request, _ context: DemoContext) async throws -> Response {
    let (path, rawQuery) = QueryString.split(target: request.head.path ?? "/products")
    let queryString = QueryString(raw: rawQuery)
    let query = try ProductQuery(queryString)
    let page = query.apply(to: state.products)
    var headers: HTTPFields = [:]
    if page.hasMore {
      let next = queryString.replacing("page", with: String(page.page + 1))
      let authority = request.head.authority ?? "127.0.0.1"
      let scheme = request.head.scheme ?? "http"
      headers[.webLink] = "<\(scheme)://\(authority)\(path)?\(next)>; rel=\"next\""
    }
    return try JSONResponse.make(page, headers: headers)
  }

  /// One product, or 404 `Product <id> not found`.
  @Sendable func product(_ request: Request, _ context: DemoContext) async throws -> Response {
    let id = try PathParameter.int("id", in: context)
    guard let product = state.products.first(where: { $0.id == id }) else {
      throw APIError.notFound("Product \(id) not found")
    }
    return try JSONResponse.make(product)
  }
}
#endif
