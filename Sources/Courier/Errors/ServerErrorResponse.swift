/// The shape of your server's error body, decoded into ``CourierError/serverError`` when a response has a status
/// the endpoint does not accept.
///
/// Conform your error body to it and name the type in ``APIClient/Configuration/serverErrorType``:
///
/// ```swift
/// struct APIErrorBody: ServerErrorResponse {
///   let code: String
///   let error: String
///   var errorMessage: String? { error }
/// }
/// let client = APIClient(baseURL: url) { $0.serverErrorType = APIErrorBody.self }
/// ```
public protocol ServerErrorResponse: Decodable, Sendable {
  /// The server's human-readable message, used by ``CourierError/userMessage``. Defaults to `nil`.
  var errorMessage: String? { get }
}

extension ServerErrorResponse {
  /// No message by default.
  public var errorMessage: String? { nil }
}
