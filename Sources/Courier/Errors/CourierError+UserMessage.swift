extension CourierError {
  /// A message to show to a person, in the client's ``APIClient/Configuration/messageLanguage`` (the app's preferred
  /// one by default), in this order of preference: the endpoint's custom message for the status, the app's
  /// replacement (``APIClient/Configuration/statusMessages``, ``APIClient/Configuration/kindMessages``), the
  /// server's own message from its error body, and Courier's sentence for the status or the kind of failure.
  public var userMessage: String {
    if let customMessage { return customMessage }
    let messages = messages ?? .preferred
    if let replacement = messages.replacement(for: self) { return replacement }
    if let message = serverError?.errorMessage, !message.isEmpty { return redacted(message) }
    return messages.sentence(for: self)
  }

}
