#if canImport(Hummingbird)
/// Errors thrown by ``DemoServer``.
@available(macOS 14, iOS 17, tvOS 17, *)
public enum DemoServerError: Error, Sendable, Equatable {
  /// The server task ended before the server started listening.
  case stoppedBeforeListening
}
#endif
