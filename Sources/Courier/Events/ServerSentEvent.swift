import Foundation

/// One event of a `text/event-stream` response, as ``APIClient/events(_:reconnection:)`` delivers it.
///
/// ```swift
/// for try await event in client.events(.get("/feed")) {
///   print(event.event, event.data)
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable {
  /// The last event ID the stream had set when this event was dispatched (an `id:` field of this event or an
  /// earlier one); empty when none was set. A reconnection sends it as `Last-Event-ID`.
  public var id: String
  /// The event type: the `event:` field, or `"message"` when it was absent or empty.
  public var event: String
  /// The `data:` fields, joined with line feeds.
  public var data: String
  /// The reconnection delay a `retry:` field of this event set, in seconds; `nil` when it had none.
  public var retry: TimeInterval?

  /// An event with the given fields.
  public init(id: String = "", event: String = "message", data: String, retry: TimeInterval? = nil) {
    self.id = id
    self.event = event
    self.data = data
    self.retry = retry
  }
}

extension ServerSentEvent {
  /// When and how often ``APIClient/events(_:reconnection:)`` opens the stream again after it ended.
  ///
  /// A stream is opened again when the server closes it, when the connection drops
  /// (``CourierError/Kind-swift.struct/connectionLost``), when the host cannot be reached (``CourierError/Kind-swift.struct/noConnection``) and when the call or its idle
  /// timeout ran out (``CourierError/Kind-swift.struct/timeout``); never after an unacceptable status, a 204, a
  /// response that is not `text/event-stream`, or a cancellation. The request then carries `Last-Event-ID`.
  public struct Reconnection: Sendable {
    /// The delay before a new connection until the server sets one with `retry:` (3 s by default).
    public var delay: TimeInterval
    /// How many times in a row the stream may be opened again without an event arriving in between; when they are
    /// used up the sequence throws the last error (or ends, when the server closed the stream cleanly). `nil` tries
    /// for ever; 0 never reconnects.
    public var maxAttempts: Int?
    /// The clock the delays are waited on; a test clock makes tests fast.
    public var clock: any DelayClock

    /// A policy with the given delay, attempt limit and clock.
    public init(delay: TimeInterval = 3, maxAttempts: Int? = 5, clock: any DelayClock = SystemDelayClock()) {
      self.delay = delay
      self.maxAttempts = maxAttempts
      self.clock = clock
    }

    /// Reconnects after 3 s (or the server's `retry:`), giving up after 5 reconnections in a row without an event.
    public static var `default`: Reconnection { Reconnection() }

    /// Never reconnects: the sequence ends when the first response ends, and throws what it throws.
    public static var never: Reconnection { Reconnection(maxAttempts: 0) }
  }
}
