import Foundation

extension APIClient {
  /// The server-sent events of `endpoint`, a `text/event-stream` resource, as they arrive.
  ///
  /// The request is sent when the iteration starts, and goes through the interceptors like ``stream(_:)`` (auth,
  /// retry, logging; never the cache) with `Accept: text/event-stream` and `Cache-Control: no-cache` unless the
  /// endpoint sets them. Events are read as the loop asks for them. Cancelling the task that iterates closes the
  /// connection: a task cancelled while it waits for an event gets ``CourierError/Kind-swift.struct/cancelled``, and
  /// one cancelled between two events sees the stream end, as with every `AsyncThrowingStream` (check
  /// `Task.isCancelled` after the loop when that matters). Leaving the loop closes the connection when the stream is
  /// released: at once for a stream made in the `for` statement or held in a local, only with its owner for one kept
  /// in a property.
  ///
  /// When the server closes the stream, the connection drops (``CourierError/Kind-swift.struct/connectionLost``), the
  /// host cannot be reached (``CourierError/Kind-swift.struct/noConnection``) or the call's timeout or idle timeout
  /// runs out (``CourierError/Kind-swift.struct/timeout``), the stream is opened again after the server's `retry:`
  /// delay (or `reconnectDelay`), with `Last-Event-ID` set to the last `id:` seen. It is never opened again after an
  /// unacceptable status, a 204, a response that is not `text/event-stream`, or a cancellation.
  ///
  /// ```swift
  /// for try await event in client.events(.get("/notifications")) {
  ///   print(event.id, event.event, event.data)
  /// }
  /// let once = client.events(.get("/feed"), maxReconnections: 0)
  /// ```
  ///
  /// - Parameters:
  ///   - endpoint: The `text/event-stream` resource.
  ///   - reconnectDelay: The seconds to wait before opening the stream again, until the server sets a delay with
  ///     `retry:`.
  ///   - maxReconnections: How many times in a row the stream may be opened again without an event arriving in
  ///     between; when they are used up the stream throws the last error (or ends, when the server closed the stream
  ///     cleanly). `nil` reconnects for ever; 0 never reconnects.
  ///   - clock: What the reconnection delays wait on; `nil` for the system clock, a test clock to skip the waits.
  /// - Throws: while iterating, ``CourierError`` only: the endpoint's status rules apply; a 204 is
  ///   ``CourierError/Kind-swift.struct/unacceptableStatus`` (the server's way to say "do not reconnect"); a response
  ///   that is not `text/event-stream`, a line or event over 1 MiB, is ``CourierError/Kind-swift.struct/decoding``.
  public func events(
    _ endpoint: Endpoint<Data>,
    reconnectDelay: TimeInterval = 3,
    maxReconnections: Int? = 5,
    clock: (any CallClock)? = nil
  ) -> AsyncThrowingStream<ServerEvent, any Error> {
    let reconnection = EventStreamReconnection(
      delay: reconnectDelay, maxAttempts: maxReconnections, clock: clock ?? SystemCallClock())
    return AsyncThrowingStream(
      pulling: ServerEventSequence(
        open: eventStreamOpener(endpoint), transform: { event, _ in event }, reconnection: reconnection))
  }

  /// The server-sent events of `endpoint`, each event's data decoded from JSON as `type`; otherwise as
  /// ``events(_:reconnectDelay:maxReconnections:clock:)``.
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
    reconnectDelay: TimeInterval = 3,
    maxReconnections: Int? = 5,
    clock: (any CallClock)? = nil
  ) -> AsyncThrowingStream<Element, any Error> {
    let decoder = decoder ?? engine.decoder(for: endpoint)
    let reconnection = EventStreamReconnection(
      delay: reconnectDelay, maxAttempts: maxReconnections, clock: clock ?? SystemCallClock())
    let events = ServerEventSequence<Element>(
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
    return AsyncThrowingStream(pulling: events)
  }

  private func eventStreamOpener(_ endpoint: Endpoint<Data>) -> ServerEventSequence<ServerEvent>.Open {
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
