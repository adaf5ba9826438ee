/// Errors thrown by ``DemoServer``.
public enum DemoServerError: Error, Sendable, Equatable {
  /// The server task ended before the server started listening.
  case stoppedBeforeListening
}
