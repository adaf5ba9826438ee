#if canImport(Hummingbird)
/// Why a `multipart/form-data` body was rejected; becomes 400 `invalid_multipart`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct MultipartFailure: Error, Sendable, Equatable {
  /// What is wrong, for the error body.
  var message: String

  /// Creates a failure with `message`.
  init(_ message: String) {
    self.message = message
  }

  /// The 400 `invalid_multipart` error.
  var apiError: APIError {
    APIError(status: .badRequest, code: "invalid_multipart", message: message)
  }
}
#endif
