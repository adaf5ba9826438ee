#if canImport(Hummingbird)
import Hummingbird

/// `/redirect/{code}?to=<location>`: answers with a redirect (301, 302, 303, 307 or 308) to `to`, a path on this
/// server or a URL anywhere (another port, another scheme), for every method, after reading the request body.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RedirectRoutes: Sendable {
  /// The statuses the route sends.
  static let codes: Set<Int> = [301, 302, 303, 307, 308]
  /// The largest request body read before answering.
  static let maxBodySize = 8 << 20

  /// The routes.
  var routes: [Route] {
    [HTTPRequest.Method.get, .post, .put, .patch, .delete].map { method in
      Route(method: method, pattern: "/redirect/{code}", handler: redirect)
    }
  }

  /// Sends `Location: <to>` with the status in the path and an empty body.
  @Sendable func redirect(_ request: Request, _ context: DemoContext) async throws -> Response {
    let raw = context.parameters.get("code") ?? ""
    guard let code = Int(raw), Self.codes.contains(code) else {
      throw APIError.invalidParameter("code", "Redirect status must be 301, 302, 303, 307 or 308, got '\(raw)'")
    }
    guard let location = QueryString(raw: request.uri.query).first("to"), !location.isEmpty else {
      throw APIError.invalidParameter("to", "Missing parameter 'to' (where to redirect)")
    }
    var request = request
    _ = try await request.collectBody(upTo: Self.maxBodySize)
    var response = JSONResponse.empty(status: HTTPResponse.Status(code: code))
    response.headers[.location] = location
    return response
  }
}
#endif
