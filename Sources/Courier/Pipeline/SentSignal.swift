import Foundation
import HTTPTypes
import HTTPTypesFoundation

/// The moment a request went out on a connection: fired by the transport through
/// ``TransportOptions/requestSent`` (AsyncHTTPClient when the request head has been written, URLSession as the body
/// goes out), or by Courier when the response head arrives. Runs the call's start work once, and only when it fired:
/// a call whose connection is refused, never accepted, whose host is unknown or whose device is offline fails
/// without starting.
final class SentSignal: Sendable {
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
      continuation.finish()
      await started
      throw error
    }
  }
}
