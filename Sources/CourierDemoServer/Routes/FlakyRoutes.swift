#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// `ANY /flaky/{key}` fails a planned number of times per key, then succeeds; `GET /flaky/{key}/attempts`
/// reads the key's count.
///
/// Query of `/flaky/{key}` (see ``FlakyOptions``): `failures` (0…20, default 2), `mode` (`status` or `reset`),
/// `status` (408, 429, 500, 502, 503 or 504; default 503), `retryAfter` or `retryAfterDate` (0…3600 seconds).
/// Every valid request counts as an attempt for its key, whichever method it uses and whether it fails; requests
/// rejected with 400 do not. Attempt `n` fails while `n ≤ failures` (each request's own `failures` decides).
@available(macOS 14, iOS 17, tvOS 17, *)
struct FlakyRoutes: Sendable {
  /// The methods `/flaky/{key}` answers (`HEAD` is generated from `GET`).
  static let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]

  /// The server state.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    Self.methods.map { method in
      Route(method: method, pattern: "/flaky/{key}", handler: flaky)
    } + [
      Route(method: .get, pattern: "/flaky/{key}/attempts", counted: false, handler: attempts)
    ]
  }

  /// Counts the attempt; fails while attempts ≤ `failures`, then 200 `{"key","attempts"}`.
  ///
  /// A failure is either the status with `{"code","error"}` and, if asked for, `Retry-After` (`mode=status`), or a
  /// connection reset before any response byte (`mode=reset`).
  @Sendable func flaky(_ request: Request, _ context: DemoContext) async throws -> Response {
    let key = try PathParameter.key(in: context)
    let options = try FlakyOptions(QueryString(raw: request.uri.query))
    let attempt = await state.recordFlakyAttempt(key: key)
    guard attempt <= options.failures else {
      return try JSONResponse.make(FlakyAttempts(key: key, attempts: attempt))
    }
    switch options.mode {
    case .reset:
      return await ConnectionDrop.response(dropping: request, context: context)
    case .status:
      return JSONResponse.error(Self.failure(key: key, attempt: attempt, options: options))
    }
  }

  /// `{"key","attempts"}` without counting an attempt.
  @Sendable func attempts(_ request: Request, _ context: DemoContext) async throws -> Response {
    let key = try PathParameter.key(in: context)
    return try JSONResponse.make(FlakyAttempts(key: key, attempts: await state.flakyAttempts(key: key)))
  }

  /// The planned status failure for `attempt`, e.g. 503 `service_unavailable` with `Retry-After`.
  static func failure(key: String, attempt: Int, options: FlakyOptions) -> APIError {
    var headers: HTTPFields = [:]
    switch options.retryAfter {
    case .seconds(let seconds):
      headers[.retryAfter] = String(seconds)
    case .date(let secondsAhead):
      headers[.retryAfter] = HTTPDate.format(HTTPDate.secondsAhead(secondsAhead))
    case nil:
      break
    }
    return APIError(
      status: options.status,
      code: ErrorMapping.code(for: options.status),
      message: "Planned failure \(attempt) of \(options.failures) for key '\(key)'",
      headers: headers
    )
  }
}
#endif
