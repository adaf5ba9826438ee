#if canImport(Hummingbird)
import Hummingbird

/// An error a route throws to answer with a JSON error body `{"code", "error", …}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct APIError: Error, Sendable {
  /// HTTP status of the response.
  var status: HTTPResponse.Status
  /// Machine-readable snake_case code, e.g. `invalid_parameter`.
  var code: String
  /// Human-readable message.
  var message: String
  /// Optional list of validation messages (`details` in the body).
  var details: [String]?
  /// The offending query or path parameter, when there is one (`parameter` in the body).
  var parameter: String?
  /// Extra response headers such as `WWW-Authenticate`.
  var headers: HTTPFields = [:]

  /// The JSON body sent for this error.
  var body: ErrorBody {
    ErrorBody(code: code, error: message, details: details, parameter: parameter)
  }

  /// 400 for a query or path parameter that is missing or cannot be parsed.
  static func invalidParameter(_ name: String, _ message: String) -> APIError {
    APIError(status: .badRequest, code: "invalid_parameter", message: message, parameter: name)
  }

  /// 400 for a request body that is not valid JSON (or not JSON at all).
  static func invalidJSON(_ message: String) -> APIError {
    APIError(status: .badRequest, code: "invalid_json", message: message)
  }

  /// 400 for a JSON body with missing fields or fields of the wrong type.
  static func invalidBody(_ message: String) -> APIError {
    APIError(status: .badRequest, code: "invalid_body", message: message)
  }

  /// A `validation_failed` error listing every problem in `details`.
  static func validationFailed(_ details: [String], status: HTTPResponse.Status = .unprocessableContent) -> APIError {
    APIError(
      status: status,
      code: "validation_failed",
      message: "Validation failed: " + details.joined(separator: "; "),
      details: details
    )
  }

  /// 404 with `not_found`.
  static func notFound(_ message: String) -> APIError {
    APIError(status: .notFound, code: "not_found", message: message)
  }

  /// 413 for a body past a route's limit.
  static func payloadTooLarge(_ message: String) -> APIError {
    APIError(status: .contentTooLarge, code: "payload_too_large", message: message)
  }

  /// 401 for bearer-protected routes, with `WWW-Authenticate: Bearer`.
  static func unauthorized(code: String, _ message: String) -> APIError {
    APIError(status: .unauthorized, code: code, message: message, headers: [.wwwAuthenticate: "Bearer"])
  }
}

/// The JSON shape of every error response.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ErrorBody: Codable, Sendable, Equatable {
  /// Machine-readable snake_case code.
  var code: String
  /// Human-readable message.
  var error: String
  /// Validation messages, when there are several.
  var details: [String]?
  /// The offending parameter, when there is one.
  var parameter: String?
}
#endif
