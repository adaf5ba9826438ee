#if canImport(Hummingbird)
import Hummingbird

/// Turns any error a handler throws into a JSON error response.
@available(macOS 14, iOS 17, tvOS 17, *)
enum ErrorMapping {
  /// The response for `error` raised while answering `request`.
  static func response(for error: any Error, request: Request, routes: RouteTable) -> Response {
    JSONResponse.error(apiError(for: error, request: request, routes: routes))
  }

  /// The ``APIError`` describing `error`.
  static func apiError(for error: any Error, request: Request, routes: RouteTable) -> APIError {
    switch error {
    case let error as APIError:
      return error
    case let error as HTTPError where error.status == .notFound:
      return routeNotFound(request: request, routes: routes)
    case let error as HTTPError:
      return APIError(
        status: error.status,
        code: code(for: error.status),
        message: error.body ?? error.status.reasonPhrase,
        headers: error.headers
      )
    case let error as any HTTPResponseError:
      return APIError(status: error.status, code: code(for: error.status), message: error.status.reasonPhrase)
    case let error as DecodingError:
      return JSONBody.map(error)
    case is CancellationError:
      return APIError(status: .serviceUnavailable, code: "shutting_down", message: "The server is shutting down")
    default:
      return APIError(status: .internalServerError, code: "internal_error", message: "Internal server error")
    }
  }

  /// 405 with `Allow` when the path exists for other methods, otherwise 404.
  static func routeNotFound(request: Request, routes: RouteTable) -> APIError {
    let path = request.uri.path
    let allowed = routes.allowedMethods(for: path)
    guard allowed.isEmpty else {
      return APIError(
        status: .methodNotAllowed,
        code: "method_not_allowed",
        message: "Method \(request.method.rawValue) is not allowed for \(path)",
        headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")]
      )
    }
    return .notFound("No route for \(request.method.rawValue) \(path)")
  }

  /// A snake_case code for an HTTP status raised by Hummingbird itself.
  static func code(for status: HTTPResponse.Status) -> String {
    switch status.code {
    case 400: return "bad_request"
    case 413: return "payload_too_large"
    case 415: return "unsupported_media_type"
    case 500: return "internal_error"
    default:
      let words = status.reasonPhrase.lowercased().split { !$0.isLetter && !$0.isNumber }
      return words.isEmpty ? "status_\(status.code)" : words.joined(separator: "_")
    }
  }
}
#endif
