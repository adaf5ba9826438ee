import Foundation
import HTTPTypes

/// The events of a `text/event-stream` endpoint, opened again after a dropped connection (see
/// ``APIClient/events(_:reconnection:)`` and ``APIClient/events(_:of:decoder:reconnection:)``).
///
/// The request is sent when the iteration starts. Iterate once; cancelling the task that iterates, or leaving the
/// loop, closes the connection.
public struct ServerSentEvents<Element: Sendable>: AsyncSequence, Sendable {
  /// Opens the stream, with the last event ID to resume after (empty on the first connection).
  typealias Open = @Sendable (_ lastEventID: String) async throws -> StreamedResponse
  /// Turns a parsed event into an element; `nil` skips it.
  typealias Transform = @Sendable (_ event: ServerSentEvent, _ line: Int) throws -> Element?

  let open: Open
  let transform: Transform
  let reconnection: ServerSentEvent.Reconnection

  /// Iterates the events.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let sequence: ServerSentEvents
    var parser = EventStreamParser()
    var body: HTTPBody.AsyncIterator?
    var pending: [EventStreamParser.Parsed] = []
    var hasConnected = false
    var reconnectionsSinceEvent = 0
    /// Why the last connection ended, when it was an error; thrown when no reconnection is left.
    var lastFailure: CourierError?
    var isFinished = false

    /// The next event; `nil` once the stream has ended for good.
    public mutating func next() async throws -> Element? {
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
      if let failure = error as? CourierError { return APIClient.cancellationAware(failure) }
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
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(sequence: self)
  }
}

extension APIClient {
  /// The server-sent events of `endpoint`, a `text/event-stream` resource, as they arrive.
  ///
  /// The request goes through the interceptors like ``stream(_:)`` (auth, retry, logging; never the cache) with
  /// `Accept: text/event-stream` and `Cache-Control: no-cache` unless the endpoint sets them. When the server closes
  /// the stream or the connection drops, the stream is opened again after the server's `retry:` delay (or
  /// `reconnection`'s), with `Last-Event-ID` set to the last `id:` seen; see ``ServerSentEvent/Reconnection``.
  ///
  /// ```swift
  /// for try await event in client.events(.get("/notifications")) {
  ///   print(event.id, event.event, event.data)
  /// }
  /// ```
  ///
  /// - Throws: while iterating, ``CourierError`` only: the endpoint's status rules apply; a 204 is
  ///   ``CourierError/Kind-swift.struct/unacceptableStatus`` (the server's way to say "do not reconnect"); a response
  ///   that is not `text/event-stream`, a line or event over 1 MiB, is ``CourierError/Kind-swift.struct/decoding``.
  public func events(
    _ endpoint: Endpoint<Data>,
    reconnection: ServerSentEvent.Reconnection = .default
  ) -> ServerSentEvents<ServerSentEvent> {
    ServerSentEvents(open: eventStreamOpener(endpoint), transform: { event, _ in event }, reconnection: reconnection)
  }

  /// The server-sent events of `endpoint`, each event's data decoded from JSON as `type`.
  ///
  /// ```swift
  /// for try await token in client.events(.post("/completions").body(json: prompt), of: Token.self) {
  ///   print(token.text, terminator: "")
  /// }
  /// ```
  ///
  /// Events are decoded with `decoder` (by default the endpoint's, or the client's); an event whose data does not
  /// decode throws ``CourierError/Kind-swift.struct/decoding`` naming the line of the stream the event started on.
  public func events<Element: Decodable & Sendable>(
    _ endpoint: Endpoint<Data>,
    of type: Element.Type,
    decoder: JSONDecoder? = nil,
    reconnection: ServerSentEvent.Reconnection = .default
  ) -> ServerSentEvents<Element> {
    let decoder = decoder ?? self.decoder(for: endpoint)
    return ServerSentEvents(
      open: eventStreamOpener(endpoint),
      transform: { event, line in
        let data = Data(event.data.utf8)
        do {
          return try decoder.decode(Element.self, from: data)
        } catch {
          var failure = ResponseDecoding.failure(error, type: Element.self, data: data)
          failure.detail = "The event at line \(line) of the event stream: \(failure.detail)"
          throw failure
        }
      },
      reconnection: reconnection)
  }

  private func eventStreamOpener(_ endpoint: Endpoint<Data>) -> ServerSentEvents<ServerSentEvent>.Open {
    var endpoint = endpoint
    endpoint.headers.insert(
      contentsOf: [HTTPHeader("Accept", "text/event-stream"), HTTPHeader("Cache-Control", "no-cache")], at: 0)
    return { [self, endpoint] lastEventID in
      var request = endpoint
      if !lastEventID.isEmpty { request.headers.append(HTTPHeader("Last-Event-ID", lastEventID)) }
      return try await openStream(request, progress: TransferReporters(request))
    }
  }
}
