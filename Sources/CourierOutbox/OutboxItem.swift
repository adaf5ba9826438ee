import Foundation
import HTTPTypes

/// A write waiting in the ``Outbox``, or what became of it: the request as it will be sent, where it stands, and the
/// answer it got.
public struct OutboxItem: Sendable, Identifiable, Hashable {
  /// An item's identity: assigned when its enqueue commits, never reused.
  public struct ID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The row's number in the store.
    public let rawValue: Int64
    /// The item numbered `rawValue`.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// The number.
    public var description: String { "\(rawValue)" }
    /// Earlier items have lower numbers.
    public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Where an item stands.
  public enum State: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting to be sent: for the network, its lane, an earlier item, a backoff or a constraint.
    case pending
    /// Being sent; an item found in this state after a restart is sent again with the same key.
    case sending
    /// The server answered with a success: applied.
    case delivered
    /// The server refused it for good (a 4xx other than those retried), or a limit was reached: kept with the answer
    /// for the app to requeue or discard.
    case deadLetter
    /// Cancelled by the app, or because an item it depended on became a dead letter.
    case cancelled
    /// Stored by a version of the app that this one does not know how to handle (an unknown kind or version):
    /// never sent and never dropped.
    case quarantined
  }

  /// The item's identity.
  public let id: ID
  /// The lane: items of one lane are sent one at a time, in the order they were enqueued.
  public let lane: String
  /// What the app calls this kind of write, to handle its result after a relaunch.
  public let kind: String
  /// The version of the kind's stored form.
  public let kindVersion: Int
  /// The method.
  public let method: HTTPRequest.Method
  /// The path and query, relative to the client's base URL when the item is sent.
  public let target: String
  /// The headers stored with the item (never credentials: the client's interceptors add those when it is sent).
  public let headerFields: HTTPFields
  /// The number of body bytes.
  public let bodyLength: Int
  /// The `Idempotency-Key` sent on every attempt: the same until the item is edited or reconciled.
  public let idempotencyKey: String
  /// The item that must be delivered before this one is sent.
  public let after: ID?
  /// Where it stands.
  public let state: State
  /// How many times it has been sent.
  public let attempts: Int
  /// When it was enqueued.
  public let enqueuedAt: Date
  /// When it may be sent next.
  public let nextAttemptAt: Date
  /// The answer's status, once one was recorded.
  public let responseStatus: HTTPResponse.Status?
  /// Why it is a dead letter, cancelled or quarantined, or why its last attempt failed.
  public let reason: String?

  /// An item as a store reads it.
  package init(
    id: ID, lane: String, kind: String, kindVersion: Int, method: HTTPRequest.Method, target: String,
    headerFields: HTTPFields, bodyLength: Int, idempotencyKey: String, after: ID?, state: State, attempts: Int,
    enqueuedAt: Date, nextAttemptAt: Date, responseStatus: HTTPResponse.Status?, reason: String?
  ) {
    self.id = id
    self.lane = lane
    self.kind = kind
    self.kindVersion = kindVersion
    self.method = method
    self.target = target
    self.headerFields = headerFields
    self.bodyLength = bodyLength
    self.idempotencyKey = idempotencyKey
    self.after = after
    self.state = state
    self.attempts = attempts
    self.enqueuedAt = enqueuedAt
    self.nextAttemptAt = nextAttemptAt
    self.responseStatus = responseStatus
    self.reason = reason
  }
}

extension OutboxItem {
  /// The item as marking it sending makes it: one attempt more.
  package func sending() -> OutboxItem {
    OutboxItem(
      id: id, lane: lane, kind: kind, kindVersion: kindVersion, method: method, target: target,
      headerFields: headerFields, bodyLength: bodyLength, idempotencyKey: idempotencyKey, after: after,
      state: .sending, attempts: attempts + 1, enqueuedAt: enqueuedAt, nextAttemptAt: nextAttemptAt,
      responseStatus: responseStatus, reason: reason)
  }
}

/// When an item may be sent, besides the network being there.
public struct OutboxConstraints: Sendable, Hashable {
  /// Whether the item may go out over an expensive path (cellular, a personal hotspot).
  public var allowsExpensiveNetwork: Bool
  /// Whether the item may go out over a constrained path (Low Data Mode).
  public var allowsConstrainedNetwork: Bool
  /// Not sent before this date.
  public var notBefore: Date?
  /// Not sent after this date: the item becomes a dead letter instead.
  public var giveUpAfter: Date?
  /// What happens to this item when the item it waits for becomes a dead letter or is cancelled.
  public var ifDependencyFails: DependencyFailure

  /// Constraints; by default none.
  public init(
    allowsExpensiveNetwork: Bool = true, allowsConstrainedNetwork: Bool = true, notBefore: Date? = nil,
    giveUpAfter: Date? = nil, ifDependencyFails: DependencyFailure = .cancel
  ) {
    self.allowsExpensiveNetwork = allowsExpensiveNetwork
    self.allowsConstrainedNetwork = allowsConstrainedNetwork
    self.notBefore = notBefore
    self.giveUpAfter = giveUpAfter
    self.ifDependencyFails = ifDependencyFails
  }

  /// No constraint.
  public static let none = OutboxConstraints()
}

/// What an item does when the item it waits for fails.
public enum DependencyFailure: String, Sendable, Hashable, Codable {
  /// It is cancelled too, with the reason.
  case cancel
  /// It is sent anyway.
  case proceed
}
