import Courier
import Foundation
import HTTPTypes

// Uploads the system carries on while the app is suspended: an item whose body is a file is handed to them, its lane
// waits for the outcome, and the outcome is recorded as an attempt's would be — also after a relaunch. The Apple glue
// (a background URLSession) is in Outbox+BackgroundSession.swift; what it calls is here.

/// Sends an item's request with its body file as an upload the system carries on without the app.
package protocol BackgroundUploader: Sendable {
  /// Starts uploading `file` with `request` for `item`'s attempt `attempt`, on the networks `network` allows;
  /// returns once the system took it.
  func upload(
    _ request: HTTPRequest, fromFile file: URL, item: OutboxItem.ID, attempt: Int, network: BackgroundNetwork
  ) async throws
  /// The items whose uploads the system still holds, running or waiting to run, and those whose end the session
  /// delivered already (their outcome is being recorded).
  func itemsInFlight() async -> Set<OutboxItem.ID>
}

/// The networks an item's background upload may use: its ``OutboxConstraints``.
package struct BackgroundNetwork: Sendable, Equatable {
  package var allowsExpensive = true
  package var allowsConstrained = true

  package init(allowsExpensive: Bool = true, allowsConstrained: Bool = true) {
    self.allowsExpensive = allowsExpensive
    self.allowsConstrained = allowsConstrained
  }

  /// How the handoff carries it to ``HandoffTransport``: `expensive=?0;constrained=?1` in ``HandoffTransport/network``.
  var headerValue: String {
    "expensive=?\(allowsExpensive ? 1 : 0);constrained=?\(allowsConstrained ? 1 : 0)"
  }

  init(headerValue: String?) {
    self.init(
      allowsExpensive: !(headerValue?.contains("expensive=?0") ?? false),
      allowsConstrained: !(headerValue?.contains("constrained=?0") ?? false))
  }
}

/// The uploader over a ``BackgroundSession`` of a ``BackgroundSystem``: background URLSessions on Apple platforms,
/// `BackgroundSystemSimulator` in tests. It is the session's delegate: the session's outcomes go to the outbox, which
/// records them, and the app's handler for the session's events is called once they are recorded.
package final class SessionUploader: BackgroundUploader, BackgroundSessionDelegate {
  private struct State {
    var session: (any BackgroundSession)?
    weak var outbox: Outbox?
    /// The tasks whose end the session delivered in this process: not lost, whatever the system lists.
    var ended: Set<String> = []
    /// Events that came before an outbox was attached (a session delivers from the moment it is made): given to
    /// the outbox when it is.
    var early: [Early] = []
  }

  enum Early {
    case finished(String, BackgroundTaskOutcome)
    case eventsDelivered
  }

  /// The uploader of each identifier in this process, with the system it runs on: a background session stays valid
  /// until its last task ends, so the uploader — and its session — outlive the outbox and go to the next one.
  private struct Entry {
    weak var systemObject: AnyObject?
    let isObject: Bool
    let systemType: ObjectIdentifier
    let uploader: SessionUploader
  }
  private static let uploaders = Locked([String: [Entry]]())

  /// The uploader of `identifier` on `system`, made (with its session) the first time.
  static func shared(
    system: any BackgroundSystem, identifier: String, serverTrust: ServerTrustPolicy
  ) throws -> SessionUploader {
    let type = ObjectIdentifier(Swift.type(of: system))
    let object: AnyObject? = Swift.type(of: system) is AnyClass ? system as AnyObject : nil
    return try uploaders.withLock { uploaders in
      // Those of systems gone (a simulator a test released) or whose sessions ended go.
      var entries = (uploaders[identifier] ?? []).filter {
        (!$0.isObject || $0.systemObject != nil) && $0.uploader.hasValidSession
      }
      defer { uploaders[identifier] = entries }
      if let entry = entries.first(where: { $0.systemType == type && $0.systemObject === object }) {
        return entry.uploader
      }
      let uploader = try SessionUploader(system: system, identifier: identifier, serverTrust: serverTrust)
      entries.append(Entry(systemObject: object, isObject: object != nil, systemType: type, uploader: uploader))
      return uploader
    }
  }

  package let serverTrustPolicy: ServerTrustPolicy
  private let state = Locked(State())

  /// Makes the session of `identifier` in `system`; throws when this process has one already.
  init(system: any BackgroundSystem, identifier: String, serverTrust: ServerTrustPolicy) throws {
    serverTrustPolicy = serverTrust
    do {
      let session = try system.makeSession(identifier: identifier, delegate: self)
      state.withLock { $0.session = session }
    } catch {
      throw OutboxError(
        .invalidRequest, "The background session \(identifier) could not be made: \(error)")
    }
  }

  /// Whether its session still delivers events.
  var hasValidSession: Bool { state.withLock { $0.session?.isValid ?? false } }

  /// Gives the session's outcomes to `outbox` from now on, and those that came before; throws while another outbox
  /// of this process has them.
  func attach(_ outbox: Outbox, identifier: String) throws {
    let early = try state.withLock { state -> [Early] in
      if let current = state.outbox, current !== outbox {
        throw OutboxError(
          .invalidRequest,
          "The background session \(identifier) is in use by another outbox of this app: keep one outbox per "
            + "backgroundSessionIdentifier (once released, its session goes to the next outbox)")
      }
      state.outbox = outbox
      defer { state.early = [] }
      return state.early
    }
    for event in early {
      switch event {
      case .finished(let description, let outcome): deliver(description, outcome, to: outbox)
      case .eventsDelivered: eventsDelivered(to: outbox)
      }
    }
  }

  package func upload(
    _ request: HTTPRequest, fromFile file: URL, item: OutboxItem.ID, attempt: Int, network: BackgroundNetwork
  ) async throws {
    guard let session = state.withLock({ $0.session }) else {
      throw OutboxError(.storeFailure, "The background session of item \(item) was invalidated")
    }
    // The system sets the length of the file itself; the header is one it reserves.
    var request = request
    request.headerFields[.contentLength] = nil
    // An answer that comes while the app is not running is not delivered to it, only its length: asked for as it is,
    // that length tells a whole answer from a cut one. Whatever the item asked for (a client's transport adds the
    // encodings it decodes to every request it builds), and the system would ask for a compressed one otherwise.
    request.headerFields[.acceptEncoding] = "identity"
    try session.upload(
      BackgroundUpload(
        request: request, file: file, taskDescription: BackgroundTaskTag.description(for: item, attempt: attempt),
        allowsExpensiveNetworkAccess: network.allowsExpensive,
        allowsConstrainedNetworkAccess: network.allowsConstrained))
  }

  package func itemsInFlight() async -> Set<OutboxItem.ID> {
    guard let session = state.withLock({ $0.session }) else { return [] }
    let running = await session.runningTaskDescriptions()
    // Read after the list: an end delivered while the system answered is counted.
    let ended = state.withLock { $0.ended }
    return Set(running.compactMap { BackgroundTaskTag.item(from: $0)?.item })
      .union(ended.compactMap { BackgroundTaskTag.item(from: $0)?.item })
  }

  package func backgroundSession(
    _ session: any BackgroundSession, taskNamed taskDescription: String, didFinishWith outcome: BackgroundTaskOutcome
  ) {
    guard BackgroundTaskTag.item(from: taskDescription) != nil else { return }
    guard
      let outbox = state.withLock({ state -> Outbox? in
        state.ended.insert(taskDescription)
        if state.outbox == nil { state.early.append(.finished(taskDescription, outcome)) }
        return state.outbox
      })
    else { return }
    deliver(taskDescription, outcome, to: outbox)
  }

  private func deliver(_ taskDescription: String, _ outcome: BackgroundTaskOutcome, to outbox: Outbox) {
    guard let (item, attempt) = BackgroundTaskTag.item(from: taskDescription) else { return }
    // Counted before the delegate returns, so that the session's last event cannot call the app's handler first.
    outbox.backgroundEvents.recordingBegan()
    Task {
      let converted: BackgroundUploadOutcome =
        switch outcome {
        case .answered(let head, let body): .answered(head, body)
        case .failed(let error): .failed(error)
        }
      await outbox.backgroundUploadFinished(item, attempt: attempt, converted)
      self.state.withLock { _ = $0.ended.remove(taskDescription) }
      outbox.backgroundEvents.recordingEnded()
    }
  }

  package func backgroundSessionDidFinishEvents(_ session: any BackgroundSession) {
    guard
      let outbox = state.withLock({ state -> Outbox? in
        if state.outbox == nil { state.early.append(.eventsDelivered) }
        return state.outbox
      })
    else { return }
    eventsDelivered(to: outbox)
  }

  private func eventsDelivered(to outbox: Outbox) {
    // Every event held for the session was delivered: handoffs whose uploads the system no longer holds were lost.
    // Undone before the app's handler is called, so that they are sent again at the next chance.
    outbox.backgroundEvents.recordingBegan()
    Task {
      await outbox.reconcileHandoffs()
      outbox.backgroundEvents.recordingEnded()
    }
    outbox.backgroundEvents.eventsDelivered()
  }
}

/// What came of a background upload.
package enum BackgroundUploadOutcome: Sendable {
  /// The server answered.
  case answered(HTTPResponse, Data)
  /// No answer came: the error, classified as a call's would be.
  case failed(any Error)
}

/// How a background upload task names its item and attempt: `courier-outbox/<id>/<attempt>` in its `taskDescription`,
/// so that the outcome of an older attempt (one the outbox gave up on and handed off again) is told apart.
package enum BackgroundTaskTag {
  static let prefix = "courier-outbox/"

  /// The description of the task of `item`'s attempt `attempt`.
  package static func description(for item: OutboxItem.ID, attempt: Int) -> String {
    prefix + String(item.rawValue) + "/" + String(attempt)
  }

  /// The item and attempt of a task with `description`, or `nil` for a task that is not an outbox item's.
  package static func item(from description: String?) -> (item: OutboxItem.ID, attempt: Int)? {
    guard let description, description.hasPrefix(prefix) else { return nil }
    let parts = description.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let raw = Int64(parts[0]), let attempt = Int(parts[1]) else { return nil }
    return (OutboxItem.ID(rawValue: raw), attempt)
  }
}

/// The transport of the client a handoff goes through: the client's interceptors and stages run as for any call (a
/// fresh token, cookies, default headers), and the request they leave is given to the uploader instead of being sent.
/// It answers `202 Accepted` carrying ``header`` at once; the item's own answer comes later, from the upload.
struct HandoffTransport: HTTPTransport {
  /// Names the item and its attempt (``BackgroundTaskTag``) on the way in; says "handed-off" on the answer.
  static let header = CacheInterceptor.handedOff
  /// The networks the upload may use (``BackgroundNetwork``), on the way in.
  static let network = HTTPField.Name("Courier-Outbox-Network")!

  let uploader: any BackgroundUploader
  /// Records the handoff before the upload starts, so that a crash between the two never sends the item twice at
  /// once: a handoff whose upload the system does not hold is undone at the next start.
  let markHandedOff: @Sendable (OutboxItem.ID) async throws -> Void
  /// Undoes ``markHandedOff`` when the upload could not start.
  let unmarkHandedOff: @Sendable (OutboxItem.ID, Int) async throws -> Void

  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    guard let (item, attempt) = BackgroundTaskTag.item(from: request.headerFields[Self.header]),
      let segments = body?.segments, segments.count == 1, case .file(let file, _) = segments[0]
    else {
      throw OutboxError(.invalidRequest, "Only an outbox item whose body is a file is handed to a background upload")
    }
    var request = request
    let network = BackgroundNetwork(headerValue: request.headerFields[Self.network])
    request.headerFields[Self.header] = nil
    request.headerFields[Self.network] = nil
    try await markHandedOff(item)
    do {
      try await uploader.upload(request, fromFile: file, item: item, attempt: attempt, network: network)
    } catch {
      // No upload holds it, and nothing was sent: the system refused to take it (its session was invalidated, the
      // file could not be read). That says nothing about the request, so the attempt fails as a lost connection
      // would — sent again after a backoff, with its key — never as a request that cannot be sent.
      try? await unmarkHandedOff(item, attempt)
      throw CourierError(
        .transport, "The system did not take the item's background upload: \(error)", request: request,
        underlyingError: error)
    }
    return (HTTPResponse(status: .accepted, headerFields: [Self.header: "handed-off"]), BodyStream())
  }
}

extension Outbox {
  /// Checks that background uploads can keep the client's redirect policy: URLSession follows redirects there itself,
  /// without asking its delegate, so a policy that follows none, or removes more headers across origins than
  /// credentials, could not be kept.
  static func checkBackgroundUploads(_ configuration: Configuration, client: APIClient) throws {
    guard let identifier = configuration.backgroundSessionIdentifier else { return }
    let redirects = client.configuration.redirects
    guard redirects.maximumRedirects > 0, redirects.removedAcrossOrigins.isEmpty else {
      throw OutboxError(
        .invalidRequest,
        "Background uploads (session \(identifier)) cannot keep the client's redirect policy "
          + "(at most \(redirects.maximumRedirects) redirects, removing \(redirects.removedAcrossOrigins.map(\.rawName).sorted()) "
          + "across origins): URLSession follows redirects in a background session itself. Use the default policy, "
          + "or leave backgroundSessionIdentifier nil to send large bodies in the foreground")
    }
  }

  /// Uses `uploader` for the items whose body is a file, from now on.
  package func useBackgroundUploader(_ uploader: any BackgroundUploader) {
    backgroundUploader = uploader
    handoffClient = Self.handoffClient(client, uploader: uploader, store: store, clock: configuration.clock)
  }

  /// `client` with ``HandoffTransport`` over `uploader`.
  static func handoffClient(
    _ client: APIClient, uploader: any BackgroundUploader, store: any OutboxStore, clock: any CallClock
  ) -> APIClient {
    var configuration = client.configuration
    configuration.transport = HandoffTransport(
      uploader: uploader,
      markHandedOff: { id in try await store.markHandedOff(id, at: clock.now) },
      unmarkHandedOff: { id, attempt in try await store.clearHandoff(id, attempt: attempt) })
    return APIClient(configuration: configuration)
  }

  /// The uploader over the background session of `configuration`'s identifier, made now, when the outbox keeps
  /// bodies in files and the platform (or ``Configuration/backgroundSystem``) has background sessions; throws when
  /// another outbox of this process uses the identifier.
  static func sessionUploader(
    _ configuration: Configuration, client: APIClient, store: any OutboxStore
  ) throws -> SessionUploader? {
    guard let identifier = configuration.backgroundSessionIdentifier, store.bodyFolder != nil,
      let system = configuration.backgroundSystem ?? Self.systemBackgroundSessions()
    else { return nil }
    let policy = (client.configuration.transport as? any ServerTrustChecking)?.serverTrustPolicy ?? .system
    return try SessionUploader.shared(system: system, identifier: identifier, serverTrust: policy)
  }

  /// Records what came of the background upload of `id`'s attempt `attempt`, as an attempt's outcome. An outcome for
  /// an item that is not handed off (recorded already, or sent again meanwhile), for another of its attempts, or one
  /// being recorded already is dropped: it was for the same key.
  package func backgroundUploadFinished(_ id: OutboxItem.ID, attempt: Int, _ outcome: BackgroundUploadOutcome) async {
    let tag = BackgroundTaskTag.description(for: id, attempt: attempt)
    guard settlingHandoffs.insert(tag).inserted else { return }
    defer { settlingHandoffs.remove(tag) }
    let handedOff: [(item: OutboxItem, bodyFile: String?)]
    do {
      handedOff = try await store.handedOffItems()
    } catch {
      // The store cannot be read: the item is sent again, with its key, rather than its lane waiting.
      try? await store.clearHandoff(id, attempt: attempt)
      wakeUp()
      return
    }
    guard let (item, bodyFile) = handedOff.first(where: { $0.item.id == id }), item.attempts == attempt else { return }
    switch outcome {
    case .answered(let head, let body):
      // The write was made now: what the client's caches hold for its target is stale.
      if let request = cacheKeyRequest(for: item) { await client.invalidateCaches(after: request, response: head) }
      let response = RecordedResponse(status: head.status, headerFields: head.headerFields, body: body)
      let decision = DeliveryDecision.decide(
        status: head.status, headerFields: head.headerFields, now: configuration.clock.now)
      if case .delivered = decision {
        await settleDelivery(item, response: response, bodyFile: bodyFile, fence: attempt)
      } else {
        await settle(item, decision: decision, response: response, fence: attempt)
      }
    case .failed(let error):
      await settle(item, decision: DeliveryDecision.decide(failure: error), response: nil, fence: attempt)
    }
    // The outcome could not be recorded: the item is sent again, with its key, rather than its lane waiting for an
    // outcome that came already. Only this attempt's handoff: the item may have been handed off again meanwhile.
    try? await store.clearHandoff(id, attempt: attempt)
    wakeUp()
  }

  /// The request of `item` as the client's caches name its target.
  nonisolated func cacheKeyRequest(for item: OutboxItem) -> HTTPRequest? {
    guard let base = client.configuration.baseURLProvider?() ?? client.configuration.baseURL,
      let url = URL(string: Self.joined(base.absoluteString, item.target)), let host = url.host
    else { return nil }
    let authority = url.port.map { "\(host):\($0)" } ?? host
    let path = url.path.isEmpty ? "/" : url.path
    return HTTPRequest(
      method: item.method, scheme: url.scheme, authority: authority,
      path: url.query.map { path + "?" + $0 } ?? path)
  }

  /// Undoes the handoffs whose uploads the system no longer holds (the app was ended before it could record their
  /// outcome, or the uploads were lost): those items are sent again, with their keys.
  func reconcileHandoffs() async {
    // An app extension has no background session: the uploads of its app, which it cannot see, are not lost.
    guard backgroundUploader != nil || !configuration.isAppExtension else { return }
    guard let handedOff = try? await store.handedOffItems(), !handedOff.isEmpty else { return }
    awaitingSystem += 1
    let alive = await backgroundUploader?.itemsInFlight() ?? []
    awaitingSystem -= 1
    for (item, _) in handedOff where !alive.contains(item.id) {
      // Its outcome is being recorded now.
      guard !settlingHandoffs.contains(BackgroundTaskTag.description(for: item.id, attempt: item.attempts)) else {
        continue
      }
      try? await store.clearHandoff(item.id, attempt: item.attempts)
    }
  }
}

extension Outbox {
  /// Gives the outbox the app's handler for the events of its background session, as
  /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` hands them over after a relaunch; returns
  /// `false`, leaving `completionHandler` to the caller, when `identifier` is another session's.
  ///
  /// ```swift
  /// func application(
  ///   _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
  ///   completionHandler: @escaping () -> Void
  /// ) {
  ///   if !outbox.handleEventsForBackgroundURLSession(identifier, completionHandler: completionHandler) {
  ///     // Another session's events: its owner calls the handler (here, none does).
  ///     completionHandler()
  ///   }
  /// }
  /// ```
  ///
  /// The outbox made its session when it was made (the system delivers the events to it); it records every upload's
  /// outcome, undoes the handoffs whose uploads the system no longer holds, and then calls `completionHandler` on the
  /// main actor, after which the system may suspend the app. It starts no new attempt for these events: the app was
  /// launched in the background to take them.
  @MainActor
  public func handleEventsForBackgroundURLSession(
    _ identifier: String, completionHandler: @escaping () -> Void
  ) -> Bool {
    guard sessionUploader != nil, identifier == configuration.backgroundSessionIdentifier else { return false }
    backgroundEvents.waitForEvents(then: completionHandler)
    // Launched in the background for these events: no attempt starts until the app becomes active.
    Task { await launchedForEvents() }
    return true
  }
}
