import Foundation

/// One event of a `text/event-stream` response, as ``APIClient/events(_:reconnectDelay:maxReconnections:clock:)``
/// delivers it.
///
/// ```swift
/// for try await event in client.events(.get("/feed")) {
///   print(event.event, event.data)
/// }
/// ```
public struct ServerEvent: Sendable, Hashable {
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
