#if canImport(Hummingbird)
import Hummingbird
import ServiceLifecycle

/// Endpoints that misbehave on purpose: `/status/{code}`, `/slow`, `/malformed-json`, `/text`, `/empty`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FaultRoutes: Sendable {
  /// Longest `/slow` wait in milliseconds.
  static let maxSlowMilliseconds = 30_000
  /// The truncated body of `/malformed-json`.
  static let malformedJSON = #"{"id": 1, "name": "#
  /// The body of `/text`.
  static let text = "Grüße, 世界 👋"

  /// The routes.
  var routes: [Route] {
    [HTTPRequest.Method.get, .post, .put, .patch, .delete].map { method in
      Route(method: method, pattern: "/status/{code}", handler: status)
    } + [
      Route(method: .get, pattern: "/slow", handler: slow),
      Route(method: .get, pattern: "/malformed-json", handler: malformedJSON),
      Route(method: .get, pattern: "/text", handler: text),
      Route(method: .get, pattern: "/empty", handler: empty),
    ]
  }

  /// Answers with the status in the path (200–599) and `{"code":"status_<code>","error":"Status <code>"}`.
  @Sendable func status(_ request: Request, _ context: DemoContext) async throws -> Response {
    let raw = context.parameters.get("code") ?? ""
    guard let code = Int(raw), (200...599).contains(code) else {
      throw APIError.invalidParameter("code", "Status code must be an integer from 200 to 599, got '\(raw)'")
    }
    let status = HTTPResponse.Status(code: code)
    if code == 204 || code == 304 {
      return JSONResponse.empty(status: status)
    }
    return try JSONResponse.make(ErrorBody(code: "status_\(code)", error: "Status \(code)"), status: status)
  }

  /// Waits `ms` milliseconds (at most 30 000) and answers `{"waitedMs": N}`.
  ///
  /// The wait ends early, without an answer, when the client disconnects or the server shuts down.
  @Sendable func slow(_ request: Request, _ context: DemoContext) async throws -> Response {
    let query = QueryString(raw: request.uri.query)
    guard let raw = query.first("ms") else {
      throw APIError.invalidParameter("ms", "Missing parameter 'ms' (milliseconds to wait)")
    }
    guard let requested = Int(raw), requested >= 0 else {
      throw APIError.invalidParameter("ms", "Invalid value '\(raw)' for parameter 'ms': expected an integer ≥ 0")
    }
    let milliseconds = min(requested, Self.maxSlowMilliseconds)
    try await request.body.consumeWithCancellationOnInboundClose { _ in
      try await cancelWhenGracefulShutdown {
        try await Task.sleep(for: .milliseconds(milliseconds))
      }
    }
    return try JSONResponse.make(["waitedMs": milliseconds])
  }

  /// 200 `application/json` with a truncated JSON document.
  @Sendable func malformedJSON(_ request: Request, _ context: DemoContext) async throws -> Response {
    JSONResponse.raw(Array(Self.malformedJSON.utf8))
  }

  /// 200 `text/plain; charset=utf-8` with non-ASCII text.
  @Sendable func text(_ request: Request, _ context: DemoContext) async throws -> Response {
    Response(
      status: .ok,
      headers: [.contentType: "text/plain; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: Self.text))
    )
  }

  /// 204 with no body.
  @Sendable func empty(_ request: Request, _ context: DemoContext) async throws -> Response {
    JSONResponse.empty()
  }
}
#endif
