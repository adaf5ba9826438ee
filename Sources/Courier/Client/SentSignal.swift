import Foundation

/// The moment a request went out on a connection: fired by the transport through
/// ``TransportOptions/requestSent`` (as a request body starts to go out), by Courier when the response head
/// arrives, or when the request has been with the transport for ``grace`` without failing. Runs the call's start
/// work once, and only when it fired: a call whose connection is refused, whose host is unknown or whose device is
/// offline fails within the grace period and never starts.
///
/// The grace period stands in for the moment a connection is made, which neither URLSession nor AsyncHTTPClient
/// reports for a request without a body; a slow server's call starts after it, as a spinner should.
final class SentSignal: Sendable {
  /// How long a request may be with the transport before it counts as sent.
  static let grace: Duration = .milliseconds(100)

  private let events: AsyncStream<Bool>
  private let continuation: AsyncStream<Bool>.Continuation

  init() {
    (events, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingOldest(1))
  }

  /// The request went out (repeated calls are ignored).
  func fire() {
    continuation.yield(true)
    continuation.finish()
  }

  /// Runs `send`, and `then` as soon as the request went out (at the latest when `send` returns); `send` returns
  /// only after `then` finished. When `send` fails before the signal fired, `then` never runs.
  func whenFired<Result: Sendable>(
    send: @Sendable () async throws -> Result,
    then: @escaping @Sendable () async -> Void
  ) async throws -> Result {
    let events = self.events
    let timer = Task { [self] in
      try await Task.sleep(for: Self.grace)
      fire()
    }
    defer { timer.cancel() }
    async let started: Void = {
      var iterator = events.makeAsyncIterator()
      if await iterator.next() == true { await then() }
    }()
    do {
      let result = try await send()
      fire()
      await started
      return result
    } catch {
      timer.cancel()
      continuation.finish()
      await started
      throw error
    }
  }
}
