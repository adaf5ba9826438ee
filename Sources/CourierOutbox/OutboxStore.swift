import Crypto
import Foundation
import HTTPTypes

/// A request as the outbox stores it: HTTP, without credentials, ready to be sent again after a relaunch.
package struct StoredRequest: Sendable, Equatable {
  package var method: HTTPRequest.Method
  /// The path and query, relative to the client's base URL.
  package var target: String
  package var headerFields: HTTPFields
  /// The body, when it is kept in the row.
  package var body: Data?
  /// The name of the file the body is kept in instead, in the outbox's folder of bodies (``BodyFiles``).
  package var bodyFile: String?
  /// The body's length in bytes, wherever it is kept.
  package var bodyLength: Int
  /// SHA-256 of the body, base64: what the server compares a reused key's payload with.
  package var bodyDigest: String
  package var idempotencyKey: String

  package init(
    method: HTTPRequest.Method, target: String, headerFields: HTTPFields, body: Data?, bodyFile: String? = nil,
    bodyLength: Int? = nil, bodyDigest: String, idempotencyKey: String
  ) {
    self.method = method
    self.target = target
    self.headerFields = headerFields
    self.body = body
    self.bodyFile = bodyFile
    self.bodyLength = bodyLength ?? body?.count ?? 0
    self.bodyDigest = bodyDigest
    self.idempotencyKey = idempotencyKey
  }

  /// SHA-256 of `body`, base64.
  package static func digest(of body: Data?) -> String {
    Data(SHA256.hash(data: body ?? Data())).base64EncodedString()
  }
}

/// What an enqueue writes.
package struct NewItem: Sendable {
  package var request: StoredRequest
  package var lane: String
  package var kind: String
  package var kindVersion: Int
  package var after: OutboxItem.ID?
  /// Values taken from the answer of `after`, written into the request when that answer is recorded.
  package var bindings: [OutboxBinding] = []
  package var constraints: OutboxConstraints
  package var enqueuedAt: Date

  package init(
    request: StoredRequest, lane: String, kind: String, kindVersion: Int, after: OutboxItem.ID? = nil,
    bindings: [OutboxBinding] = [], constraints: OutboxConstraints, enqueuedAt: Date
  ) {
    self.request = request
    self.lane = lane
    self.kind = kind
    self.kindVersion = kindVersion
    self.after = after
    self.bindings = bindings
    self.constraints = constraints
    self.enqueuedAt = enqueuedAt
  }
}

/// What the server answered, as an item keeps it.
package struct RecordedResponse: Sendable, Equatable {
  package var status: HTTPResponse.Status
  package var headerFields: HTTPFields
  package var body: Data

  package init(status: HTTPResponse.Status, headerFields: HTTPFields, body: Data) {
    self.status = status
    self.headerFields = headerFields
    self.body = body
  }
}

/// What became of an attempt, as the store records it.
package enum AttemptRecord: Sendable {
  case delivered(RecordedResponse)
  /// Sent again at `at`; not before `heldUntil` even when drained, when the server asked for a wait.
  case retry(at: Date, heldUntil: Date?, reason: String)
  /// The lane pauses; the item stays first in it.
  case pauseLane(reason: String)
  case deadLetter(reason: String, response: RecordedResponse?)
  /// The outbox cut the attempt itself (the app's background time ran out): the item waits again, ready at once, and
  /// the attempt does not count towards the limit.
  case cut(reason: String)
}

/// An item ready to be considered for sending: its lane's first, with what decides whether it may go now.
package struct Candidate: Sendable {
  package var item: OutboxItem
  package var constraints: OutboxConstraints
  /// The state of the item it waits for, if any.
  package var dependency: OutboxItem.State?
  /// The end of the wait the server asked for (`Retry-After`), which a drain does not skip.
  package var heldUntil: Date?
  /// Whether it was handed to a background upload whose outcome has not come yet: its lane waits for it.
  package var handedOff = false

  package init(
    item: OutboxItem, constraints: OutboxConstraints, dependency: OutboxItem.State?, heldUntil: Date?,
    handedOff: Bool = false
  ) {
    self.item = item
    self.constraints = constraints
    self.dependency = dependency
    self.heldUntil = heldUntil
    self.handedOff = handedOff
  }
}

/// Where the outbox keeps its items: the boundary between the outbox's logic and a database.
///
/// The outbox decides — whether an item may go, what an answer means (classification, backoff, dead letters), keys,
/// bindings, which kinds to quarantine — and a store keeps what it decided, each change in one transaction: it
/// inserts items (committed before an enqueue returns); lists each lane's first waiting item; claims them (marks each
/// sending, one more attempt, before the request leaves; in a shared store, under the lane's lease); records an
/// attempt's outcome, fenced by the attempt (and by the lease), with what the answer binds into the item's dependants
/// in the same transaction; moves an item between states (cancel, requeue, edit, quarantine); pauses lanes; and reads
/// items, totals and results. A store shared by several processes says so and wakes them (``isShared``,
/// ``watch(_:)``); a store that keeps large bodies in files names its folder (``bodyFolder``) and records which of them it
/// handed to the system's background uploads. Every store passes
/// the same conformance cases (`Tests/CourierOutboxConformance`).
package protocol OutboxStore: Sendable {
  /// Writes `items` in one transaction and returns their IDs, in order, once committed.
  func insert(_ items: [NewItem]) async throws -> [OutboxItem.ID]
  /// The first waiting item (pending or sending) of each lane not in `busyLanes` and not paused.
  func laneHeads(excluding busyLanes: Set<String>) async throws -> [Candidate]
  /// The first waiting item of `lane`, unless the lane is paused.
  func laneHead(_ lane: String) async throws -> Candidate?
  /// Claims the lanes' first waiting items `ids`, together (one transaction; in a shared store, one round trip): marks
  /// each sending, one more attempt, before its request leaves, while it is still its lane's first waiting item and
  /// the lane is not paused (in a shared store, and free, this worker's, or its lease ended: the lane's lease is
  /// taken). Returns those claimed, with their requests; the others are left as they are.
  func claimHeads(_ ids: [OutboxItem.ID]) async throws -> [Claim]
  /// Records an attempt's outcome. A delivery writes the values its dependants bind into their requests in the same
  /// transaction; a dependant whose value the answer does not hold becomes a dead letter, and is returned.
  ///
  /// With `attempt`, only while that attempt is the item's latest and it is sending; throws
  /// ``OutboxError/Kind/noSuchItem`` otherwise. A background upload's outcome may come late: one of an attempt the
  /// outbox gave up on never overwrites a later attempt's.
  @discardableResult
  func record(
    _ record: AttemptRecord, for id: OutboxItem.ID, lane: String, at date: Date, ifAttempt attempt: Int?
  ) async throws -> RecordResult
  /// Records the deliveries of a run of `lane`'s items, in their order, as ``record(_:for:lane:at:ifAttempt:)`` does,
  /// in one transaction (in a shared store, under the lane's lease); then, in the same transaction, marks the lane's
  /// next items sending, up to `limit`, in order while `claim` says each may go at once, and returns them with their
  /// requests. With no deliveries, nothing is recorded or claimed.
  func recordDeliveries(
    _ deliveries: [Delivery], lane: String, at date: Date, claimingUpTo limit: Int,
    claimingNextIf claim: @escaping @Sendable (Candidate) -> Bool
  ) async throws -> (RecordResult, [Claim])
  /// Items, newest last, optionally only in `states`.
  func items(in states: Set<OutboxItem.State>?) async throws -> [OutboxItem]
  /// The number of items pending or sending.
  func waitingCount() async throws -> Int
  /// Bytes of bodies held by items pending or sending.
  func waitingBytes() async throws -> Int
  /// Sets the state of `id` from one of `from` to `to` with `reason`; false when the item was in none of them.
  func transition(
    _ id: OutboxItem.ID, from: Set<OutboxItem.State>, to: OutboxItem.State, reason: String?, newKey: String?,
    at date: Date
  ) async throws -> Bool
  /// Cancels the items waiting for `id` whose dependency failure rule is `cancel`; returns them.
  func cancelDependants(of id: OutboxItem.ID, reason: String, at date: Date) async throws -> [OutboxItem.ID]
  /// Pauses or resumes `lane`.
  func setLane(_ lane: String, pausedBecause reason: String?) async throws
  /// Counts the key retention of `id` from `date`, after it was given a new key.
  func restartRetention(_ id: OutboxItem.ID, at date: Date) async throws
  /// Replaces the stored body and headers of a waiting item, with a new key.
  func edit(_ id: OutboxItem.ID, request: StoredRequest, at date: Date) async throws -> Bool
  /// The item's result, once it was delivered or became a dead letter.
  func result(for id: OutboxItem.ID) async throws -> OutboxResult?
  /// Items of `kind` delivered or dead-lettered whose result no handler has taken yet, oldest first.
  func unhandledResults(ofKind kind: String) async throws -> [OutboxItem.ID]
  /// Records that a handler took the item's result.
  func markHandled(_ id: OutboxItem.ID) async throws
  /// The folder that bodies kept in files go in, beside the database; `nil` for a store that keeps every body in its
  /// rows (the default).
  var bodyFolder: URL? { get }
  /// The names of the body files that items still need (waiting, dead letters, quarantined); none by default.
  func referencedBodyFiles() async throws -> Set<String>
  /// Records that the item, marked sending, was handed to a background upload: its lane waits for the outcome, and it
  /// is not sent again while the upload may still be under way. Recording any outcome ends the handoff. A store
  /// without a ``bodyFolder`` hands nothing to the system (background uploads send files): it refuses.
  func markHandedOff(_ id: OutboxItem.ID, at date: Date) async throws
  /// The items handed to background uploads, with the names of their body files; none by default.
  func handedOffItems() async throws -> [(item: OutboxItem, bodyFile: String?)]
  /// Ends the handoff of `id`'s attempt `attempt` without an outcome (its upload is gone): it is sent again, with its
  /// key. A later attempt's handoff is left as it is. Nothing to end by default.
  func clearHandoff(_ id: OutboxItem.ID, attempt: Int) async throws
  /// Whether other processes write to the store too (a fleet's workers): the outbox then keeps no totals in memory.
  var isShared: Bool { get }
  /// Gives `lane` back once this process's runner stopped sending it, so that another worker may take it; with
  /// `wakingOthers`, the other workers are told at once (without, this one looks at the lanes itself first, and wakes
  /// them with ``wakeOthers()`` if it leaves one that may go).
  func releaseLane(_ lane: String, wakingOthers: Bool) async
  /// How long a claim surely holds once made or renewed by a record (in a shared store, a part of the lane's lease):
  /// a lane runner sends no more of the items it claimed together after that, before it records. `nil`, the default:
  /// until the lane is given back.
  var claimsHoldFor: Duration? { get }
  /// Wakes the other workers of a shared store to look at the lanes' first items.
  func wakeOthers() async
  /// Watches for changes other processes make, calling `wake` for each, until the task is cancelled; `nil` for a store
  /// only this process writes.
  func watch(_ wake: @escaping @Sendable () -> Void) -> Task<Void, Never>?
}

extension OutboxStore {
  /// Claims the lane's first waiting item `id` alone (``claimHeads(_:)``); throws ``OutboxError/Kind/noSuchItem`` if
  /// it is not claimed.
  package func markSending(_ id: OutboxItem.ID) async throws -> Claim {
    guard let claim = try await claimHeads([id]).first else {
      throw OutboxError(
        .noSuchItem,
        "The item \(id) is not its lane's first waiting item, its lane is paused, or another worker holds it")
    }
    return claim
  }

  package var bodyFolder: URL? { nil }
  package func referencedBodyFiles() async throws -> Set<String> { [] }
  package func markHandedOff(_ id: OutboxItem.ID, at date: Date) async throws {
    throw OutboxError(
      .invalidRequest, "This outbox's store keeps no bodies in files, so it hands no upload to the system")
  }
  package func handedOffItems() async throws -> [(item: OutboxItem, bodyFile: String?)] { [] }
  package func clearHandoff(_ id: OutboxItem.ID, attempt: Int) async throws {}
  /// Writes `item` and returns its ID once committed.
  package func insert(_ item: NewItem) async throws -> OutboxItem.ID {
    guard let id = try await insert([item]).first else {
      throw OutboxError(.storeFailure, "The outbox's store wrote no item and said nothing of why")
    }
    return id
  }
  /// Records an attempt's outcome, whichever attempt is the latest.
  @discardableResult
  package func record(
    _ record: AttemptRecord, for id: OutboxItem.ID, lane: String, at date: Date
  ) async throws -> RecordResult {
    try await self.record(record, for: id, lane: lane, at: date, ifAttempt: nil)
  }
  package var isShared: Bool { false }
  package func releaseLane(_ lane: String, wakingOthers: Bool) async {}
  package func wakeOthers() async {}
  package var claimsHoldFor: Duration? { nil }
  package func watch(_ wake: @escaping @Sendable () -> Void) -> Task<Void, Never>? { nil }
}

/// An item marked sending, with its request.
package typealias Claim = (item: OutboxItem, request: StoredRequest)

/// An item delivered, with the answer to record.
package typealias Delivery = (id: OutboxItem.ID, response: RecordedResponse)

/// What recording an attempt changed besides the item.
package struct RecordResult: Sendable {
  /// Dependants whose bound values the answer did not hold: they became dead letters.
  package var failures: [BindingFailure] = []
  /// Whether any dependant was changed: its values bound, or made a dead letter.
  package var changedDependants = false

  package init(failures: [BindingFailure] = [], changedDependants: Bool = false) {
    self.failures = failures
    self.changedDependants = changedDependants
  }

  /// Adds what recording another attempt changed.
  package mutating func add(_ other: RecordResult) {
    failures += other.failures
    changedDependants = changedDependants || other.changedDependants
  }
}

/// A dependant whose bound value the answer did not hold: it became a dead letter.
package struct BindingFailure: Sendable {
  package var id: OutboxItem.ID
  package var error: OutboxError

  package init(id: OutboxItem.ID, error: OutboxError) {
    self.id = id
    self.error = error
  }
}

/// A kind of write and the version of its stored form.
package struct KindVersion: Sendable, Hashable {
  package var kind: String
  package var version: Int

  package init(kind: String, version: Int) {
    self.kind = kind
    self.version = version
  }
}
