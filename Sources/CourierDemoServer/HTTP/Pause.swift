#if canImport(Hummingbird)
import ServiceLifecycle

/// Waits inside a handler while keeping the connection reusable.
///
/// Unlike `/slow`, which waits with `consumeWithCancellationOnInboundClose` (so a client that disconnects ends the
/// wait, but the connection is closed after the response), these waits leave keep-alive intact: clients measuring
/// concurrency or de-duplication keep their pooled connections. A client that disconnects does not end the wait;
/// a server shutdown does.
@available(macOS 14, iOS 17, tvOS 17, *)
enum Pause {
  /// Sleeps `milliseconds` (nothing for 0); throws `CancellationError` when the server shuts down.
  static func milliseconds(_ milliseconds: Int) async throws {
    guard milliseconds > 0 else { return }
    try await cancelWhenGracefulShutdown {
      try await Task.sleep(for: .milliseconds(milliseconds))
    }
  }
}
#endif
