extension CourierError {
  /// A message to show to a person, in this order of preference: the endpoint's custom message for the status,
  /// the server's own message from its error body, and a plain sentence for the kind of failure.
  public var userMessage: String {
    if let customMessage { return customMessage }
    if let message = serverError?.errorMessage, !message.isEmpty { return redacted(message) }
    switch kind {
    case .noConnection: return "You appear to be offline. Check your connection and try again."
    case .timeout: return "The server took too long to respond. Please try again."
    case .connectionLost: return "The connection was lost. Please try again."
    case .cancelled: return "The request was cancelled."
    case .tls: return "A secure connection to the server could not be made."
    case .decoding: return "The server's response could not be read."
    case .unauthorized: return "Please sign in again."
    case .notCached: return "This isn't available offline."
    case .integrity: return "The download was damaged. Please try again."
    case .fileSystem: return "The file could not be saved."
    case .redirect: return "The server sent the request somewhere it could not follow."
    case .responseTooLarge: return "The server's response was too large."
    case .unacceptableStatus: return Self.message(forStatus: status?.code ?? 0)
    case .invalidURL, .invalidRequest, .encoding: return "The request could not be created."
    default: return "Something went wrong. Please try again."
    }
  }

  static func message(forStatus code: Int) -> String {
    switch code {
    case 400: return "The request was not accepted by the server."
    case 401: return "Please sign in again."
    case 403: return "You don't have permission to do that."
    case 404: return "The requested item could not be found."
    case 408: return "The server took too long to respond. Please try again."
    case 409: return "That conflicts with something that already exists."
    case 413: return "That is too large to send."
    case 422: return "Some of the information is not valid."
    case 429: return "Too many requests. Please wait a moment and try again."
    case 500..<600: return "The server had a problem. Please try again later."
    default: return "The request could not be completed (status \(code))."
    }
  }
}
