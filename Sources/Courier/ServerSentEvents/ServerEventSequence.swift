import Foundation
import HTTPTypes

/// The events of a `text/event-stream` endpoint, opened again after a dropped connection; what `APIClient.events`
/// pulls from.
///
/// The request is sent by the first `next()`. Dropping the iterator closes the connection.
struct ServerEventSequence<Element: Sendable>: AsyncSequence, Sendable {
  /// Opens the stream, with the last event ID to resume after (empty on the first connection).
  typealias Open = @Sendable (_ lastEventID: String) async throws -> StreamedResponse
  /// Turns a parsed event into an element; `nil` skips it.
  typealias Transform = @Sendable (_ event: ServerEvent, _ line: Int) throws -> Element?

  let open: Open
  let transform: Transform
  let reconnection: EventStreamReconnection

  struct AsyncIterator: AsyncIteratorProtocol {
    let sequence: ServerEventSequence
    var parser = EventStreamParser()
    var body: BodyStream.AsyncIterator?
    var pending: [EventStreamParser.Parsed] = []
    var hasConnected = false
    var reconnectionsSinceEvent = 0
    /// Why the last connection ended, when it was an error; thrown when no reconnection is left.
    var lastFailure: CourierError?
    var isFinished = false

    /// The next event; `nil` once the stream has ended for good.
    mutating func next() async throws -> Element? {
      while !isFinished {
        if !pending.isEmpty {
          let parsed = pending.removeFirst()
          reconnectionsSinceEvent = 0
          do {
            if let element = try sequence.transform(parsed.event, parsed.line) { return element }
          } catch {
            finish()
            throw error
          }
          continue
        }
        do {
          if body == nil { try await connect() }
          if let chunk = try await body?.next() {
            pending = try parser.parse(chunk)
          } else {
            body = nil
            parser.reset()
            lastFailure = nil
          }
        } catch {
          body = nil
          parser.reset()
          let failure = Self.failure(error)
          // A failure after `connect()` gave up (`isFinished`) is the last one, thrown as it is.
          guard !isFinished, Self.reconnects(after: failure) else {
            finish()
            throw failure
          }
          lastFailure = failure
        }
      }
      return nil
    }

    /// Opens the stream (again, after the reconnection delay, when it was open before).
    private mutating func connect() async throws {
      if hasConnected {
        let reconnection = sequence.reconnection
        if let limit = reconnection.maxAttempts, reconnectionsSinceEvent >= limit {
          let failure = lastFailure
          finish()
          if let failure { throw failure }
          return
        }
        reconnectionsSinceEvent += 1
        let delay = parser.reconnectionDelay.map { TimeInterval($0) / 1000 } ?? reconnection.delay
        try await reconnection.clock.sleep(seconds: delay)
      }
      hasConnected = true
      let stream = try await sequence.open(parser.lastEventID)
      try Self.check(stream)
      body = stream.body.makeAsyncIterator()
    }

    private mutating func finish() {
      isFinished = true
      body = nil
      pending = []
    }

    /// A 204 asks the client to stop; anything but `text/event-stream` is not an event stream.
    private static func check(_ stream: StreamedResponse) throws {
      if stream.response.status == .noContent {
        throw CourierError(
          .unacceptableStatus, "The server answered 204 No Content: the event stream is over and must not be reopened",
          request: stream.request, response: stream.response)
      }
      let contentType = stream.response.headerFields[.contentType]
      let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
      guard mediaType == "text/event-stream" else {
        throw CourierError(
          .decoding,
          "The response is \(contentType.map { "'\($0)'" } ?? "without a Content-Type"), not an event stream "
            + "(text/event-stream)",
          request: stream.request, response: stream.response)
      }
    }

    private static func failure(_ error: any Error) -> CourierError {
      if let failure = error as? CourierError { return failure.cancellationAware() }
      if error is CancellationError || Task.isCancelled {
        return CourierError(.cancelled, "The event stream was cancelled", underlyingError: error)
      }
      return CourierError(.transport, "The event stream failed: \(error)", underlyingError: error)
    }

    private static func reconnects(after failure: CourierError) -> Bool {
      [.connectionLost, .noConnection, .timeout].contains(failure.kind) && !Task.isCancelled
    }
  }

  /// Starts the iteration; the request is sent by the first `next()`.
  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(sequence: self)
  }
}

/// When and how often an event stream is opened again after it ended (see `APIClient.events`).
struct EventStreamReconnection: Sendable {
  /// The delay before a new connection until the server sets one with `retry:`, in seconds.
  var delay: TimeInterval
  /// How many times in a row the stream may be opened again without an event arriving in between; `nil` for ever,
  /// 0 never.
  var maxAttempts: Int?
  /// The clock the delays are waited on.
  var clock: any CallClock
}
