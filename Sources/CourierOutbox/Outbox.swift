import Courier
import Crypto
import Foundation
import HTTPTypes

/// Writes that are never lost and never applied twice: unsafe requests stored durably, sent through an `APIClient`
/// when the network allows, each with an `Idempotency-Key` so that a resend after a lost answer is applied once.
///
/// ```swift
/// let outbox = try Outbox(client: client, path: Outbox.defaultPath())
/// let id = try await outbox.enqueue(Endpoint<Post>.post("/posts", body: draft), lane: "posts")
/// for await event in await outbox.events() { print(event) }
/// ```
///
/// An item is enqueued once its row committed; it is sent through `client`, so the client's interceptors add
/// credentials, trace and log at send time (credentials are never stored). Items of one lane go out one at a time,
/// in order; lanes go in parallel. The outbox decides only *when* and *what next*, from the typed outcome of each
/// attempt: delivered; sent again later with backoff (a transport failure, 408, 409, 425, 429, 500, 502, 503, 504);
/// the lane paused (401); or a dead letter (any other 4xx, 422 among them), kept with the answer. An item found
/// "sending" after a restart is sent again with the same key. See <doc:OfflineWrites>.
public actor Outbox {
  package nonisolated let client: APIClient
  package nonisolated let store: any OutboxStore
  package nonisolated let configuration: Configuration
  /// Where bodies above ``Configuration/fileBodyThreshold`` are kept; `nil` when the database is not a file.
  let bodyFiles: BodyFiles?
  /// The keys of items whose body file is written but whose row has not committed yet: a sweep leaves them.
  var bodiesBeingStored: Set<String> = []
  /// Uploads the system carries on while the app is suspended, for items whose body is a file.
  var backgroundUploader: (any BackgroundUploader)?
  /// The client with ``HandoffTransport``, through which items are handed to ``backgroundUploader``.
  var handoffClient: APIClient?
  /// Whether a background task the system launched the app for (``beganBackgroundTask()``) took the app to be in the
  /// background.
  var inBackgroundTask = false
  /// The uploader over the system's background session of the identifier: one per process, which each outbox of the
  /// identifier takes in turn (`SessionUploader.shared`).
  nonisolated let sessionUploader: SessionUploader?
  /// The constraints of the items claimed and not yet sent, for their background uploads.
  nonisolated let claimedConstraints = Locked([OutboxItem.ID: OutboxConstraints]())
  /// Whether the outbox may start attempts: the app is in the foreground, or has background time to send in. An app
  /// launched in the background (for its background session's events) starts none until it comes to the foreground.
  var mayClaim: Bool {
    // The app has time to send in again (the foreground, or a background task of its own): the wait of an earlier
    // leave of the foreground ends, and the time it held is given back.
    didSet { if mayClaim, !leaveWaiters.isEmpty { releaseLeaveWaiters() } }
  }
  /// Callers of `finishAttemptsInFlight()`, by the number each was given.
  var leaveWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  /// The number the last of them was given.
  var leaveWaitersGiven: UInt64 = 0
  /// Whether the app is in the foreground, as far as the outbox knows.
  var isActive: Bool
  /// Whether the app's becoming active was heard (not only assumed at launch).
  var heardActive = false
  /// The lane runners, cancelled when the app's background time runs out.
  var laneRunners: [String: Task<Void, Never>] = [:]
  /// Whether the delivery loop is in a pass (or its start), or was woken and has not begun the next pass.
  var loopBusy = false
  /// Whether the loop was woken since its pass began.
  var wakePending = false
  /// Listings of the system's background tasks asked for and not answered: the system answers them in its time.
  var awaitingSystem = 0
  /// The app's handler for a background session's events, called once their outcomes are recorded.
  let backgroundEvents = BackgroundEvents()
  /// The background uploads (``BackgroundTaskTag``) whose outcome is being recorded now.
  var settlingHandoffs: Set<String> = []
  var subscribers: [UUID: AsyncStream<OutboxEvent>.Continuation] = [:]
  /// The lanes given back at the end of their turn since the last pass began: the next pass puts them after the other
  /// lanes, and, as their release woke no other worker of a shared store, wakes them if it leaves a lane it could not
  /// take.
  var lanesAtTurnsEnd: Set<String> = []
  /// The lanes with an attempt in flight.
  var busyLanes: Set<String> = []
  /// The items being sent now.
  var inFlight: Set<OutboxItem.ID> = []
  /// How many delivery passes began.
  var passes: UInt64 = 0
  /// Callers of `drainUntilDone()`, released by the first pass that began after they asked and left nothing in flight
  /// and nothing more to start.
  var settleWaiters: [(after: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
  var lifecycle: AppLifecycleObserver?
  var loop: Task<Void, Never>?
  var wake: AsyncStream<Void>.Continuation?
  var drainWaiters: [CheckedContinuation<Void, Never>] = []
  /// Whether `drain()` asked to send what waits in a backoff now.
  var ignoreBackoffOnce = false
  var lastReportedCount: Int?
  /// The items and body bytes waiting, while known: an enqueue adds to them, any other change forgets them.
  var waiting: (count: Int, bytes: Int)? {
    didSet { if waiting == nil { waitingGeneration &+= 1 } }
  }
  /// Counts the times ``waiting`` was forgotten, so that totals read from the store across a suspension are kept only
  /// when nothing changed meanwhile.
  var waitingGeneration: UInt64 = 0
  /// The handlers of final results, by kind name.
  var resultHandlers: [String: @Sendable (OutboxResult) async -> Void] = [:]
  /// Items whose result a handler is taking now, so that none is given the same result twice at once.
  var handling: Set<OutboxItem.ID> = []

  package init(
    client: APIClient, store: any OutboxStore, configuration: Configuration, uploader: SessionUploader? = nil
  ) {
    self.client = client
    self.store = store
    self.configuration = configuration
    bodyFiles = store.bodyFolder.map { BodyFiles(folder: $0, threshold: configuration.fileBodyThreshold) }
    mayClaim = !configuration.startsInBackground
    isActive = !configuration.startsInBackground
    sessionUploader = uploader
    if let uploader {
      backgroundUploader = uploader
      handoffClient = Self.handoffClient(client, uploader: uploader, store: store, clock: configuration.clock)
    }
  }

  // MARK: Enqueue

  /// Stores `endpoint`'s request and returns its ID once the row committed; sending starts at once when online.
  ///
  /// - Parameters:
  ///   - endpoint: The write. Its body must be replayable (in memory, a file, a form): a one-shot stream throws
  ///     ``OutboxError/Kind/invalidRequest``. A safe method (GET, HEAD, OPTIONS) is refused the same way: a read that
  ///     cannot be sent now belongs to the cache, not the outbox.
  ///   - lane: Items of one lane are sent one at a time, in order.
  ///   - after: An item that must be delivered first.
  ///   - bindings: Values taken from the answer of `after`, put where the request says `{name}` (see
  ///     ``OutboxBinding``). When `after` was delivered already, they are bound now, and a value its answer does not
  ///     hold throws ``OutboxError/Kind/bindingFailed``.
  ///   - kind: The app's name for this kind of write, and its version.
  ///   - constraints: When the item may be sent.
  @discardableResult
  public func enqueue<Value>(
    _ endpoint: Endpoint<Value>, lane: String = "default", after: OutboxItem.ID? = nil,
    bindings: [OutboxBinding] = [], kind: Kind = Kind("request"), constraints: OutboxConstraints = .none
  ) async throws -> OutboxItem.ID {
    try OutboxBinding.validate(bindings, after: after, constraints: constraints)
    let request = try await stored(endpoint)
    let id = try await committing([request]) {
      try await checkRoom(for: request.bodyLength)
      let item = NewItem(
        request: request, lane: lane, kind: kind.name, kindVersion: kind.version, after: after, bindings: bindings,
        constraints: constraints, enqueuedAt: configuration.clock.now)
      return try await store.insert(item)
    }
    adjustWaiting(count: 1, bytes: request.bodyLength)
    emit(.enqueued(id))
    if !configuration.monitor.currentPath.isOnline { emit(.waiting(id, .offline)) }
    await reportCount()
    start()
    wakeUp()
    return id
  }

  /// Stores the requests of `endpoints` in one transaction, in order in `lane`, and returns their IDs once it
  /// committed: all of them or none. Faster than one enqueue each when many writes are made at once.
  @discardableResult
  public func enqueue<Value>(
    contentsOf endpoints: [Endpoint<Value>], lane: String = "default", kind: Kind = Kind("request"),
    constraints: OutboxConstraints = .none
  ) async throws -> [OutboxItem.ID] {
    var requests: [StoredRequest] = []
    let now = configuration.clock.now
    do {
      for endpoint in endpoints { requests.append(try await stored(endpoint)) }
    } catch {
      forget(requests)
      throw error
    }
    let bytes = requests.reduce(0) { $0 + $1.bodyLength }
    let items = requests.map { request in
      NewItem(
        request: request, lane: lane, kind: kind.name, kindVersion: kind.version, after: nil,
        constraints: constraints, enqueuedAt: now)
    }
    let ids = try await committing(requests) {
      try await checkRoom(for: bytes)
      return try await store.insert(items)
    }
    adjustWaiting(count: ids.count, bytes: bytes)
    let offline = !configuration.monitor.currentPath.isOnline
    for id in ids {
      emit(.enqueued(id))
      if offline { emit(.waiting(id, .offline)) }
    }
    await reportCount()
    start()
    wakeUp()
    return ids
  }

  /// What an enqueue within the app's own transaction writes: `endpoint`'s request with its body in memory.
  package nonisolated func newItem<Value>(
    _ endpoint: Endpoint<Value>, lane: String, after: OutboxItem.ID?, bindings: [OutboxBinding], kind: Kind,
    constraints: OutboxConstraints
  ) throws -> NewItem {
    try OutboxBinding.validate(bindings, after: after, constraints: constraints)
    let (request, body) = try Self.built(endpoint, client: client)
    if let body, body.bufferedData == nil {
      throw OutboxError(.invalidRequest, "An enqueue within a transaction needs the body in memory")
    }
    let stored = try Self.stored(request, body: body?.bufferedData, client: client)
    return NewItem(
      request: stored, lane: lane, kind: kind.name, kindVersion: kind.version, after: after, bindings: bindings,
      constraints: constraints, enqueuedAt: configuration.clock.now)
  }
}
