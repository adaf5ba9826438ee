extension URLSessionTransport {
  /// How one exchange goes through URLSession.
  enum ExchangePath: Sendable, Hashable {
    /// A data task with a completion handler: the body arrives whole, checked against a limit only once it is all in
    /// memory.
    case completionHandler
    /// A task whose callbacks the transport's session delegate receives: the body's chunks are counted as they
    /// arrive, and the task is ended as soon as they pass the call's limit.
    case delegate
  }

  /// The path of an exchange.
  ///
  /// - Parameters:
  ///   - hasDelegate: Whether the session has Courier's delegate (it was made by ``init(configuration:)``).
  ///   - challengesNeedDelegate: Whether only delegate tasks hand an authentication challenge back (Linux).
  ///   - deliversBodyIncrementally: Whether the caller reads the body as it arrives, or keeps an idle timeout.
  ///   - hasBufferedBody: Whether the request has no body or one in memory without progress.
  ///   - responseLimit: The most body bytes the call reads (``TransportOptions/maxResponseBytes``).
  static func exchangePath(
    hasDelegate: Bool,
    challengesNeedDelegate: Bool,
    deliversBodyIncrementally: Bool,
    hasBufferedBody: Bool,
    responseLimit: Int?
  ) -> ExchangePath {
    guard hasDelegate else { return .completionHandler }
    if challengesNeedDelegate || deliversBodyIncrementally || !hasBufferedBody || responseLimit != nil {
      return .delegate
    }
    return .completionHandler
  }
}
