import Foundation
import HTTPTypes

/// What happens to the items of an ``Outbox``, as ``Outbox/events()`` delivers it.
public enum OutboxEvent: Sendable, Equatable {
  /// Why an item waits.
  public enum Wait: Sendable, Equatable {
    /// No usable network path.
    case offline
    /// A backoff after a failed attempt, until the date.
    case backoff(until: Date)
    /// Its lane is paused: the server answered 401, or the app paused it.
    case paused(reason: String)
    /// A constraint of the item's (an expensive or constrained path, a date not reached).
    case constraint
  }

  /// The item's enqueue committed.
  case enqueued(OutboxItem.ID)
  /// The item is being sent, for the `attempt`th time (counting from 1).
  case sending(OutboxItem.ID, attempt: Int)
  /// The item waits.
  case waiting(OutboxItem.ID, Wait)
  /// The server accepted the item with `status`.
  case delivered(OutboxItem.ID, status: HTTPResponse.Status)
  /// The item became a dead letter.
  case deadLettered(OutboxItem.ID, OutboxError)
  /// The item was cancelled.
  case cancelled(OutboxItem.ID, reason: String)
  /// The item was stored by a version of the app this one does not know.
  case quarantined(OutboxItem.ID, reason: String)
  /// How many items wait to be delivered changed.
  case pendingCount(Int)
}
