import Courier
import Foundation
import HTTPTypes

// Uploads the system carries on while the app is suspended: an item whose body is a file is handed to them, its lane
// waits for the outcome, and the outcome is recorded as an attempt's would be — also after a relaunch. The Apple glue
// (a background URLSession) is in Outbox+BackgroundSession.swift; what it calls is here.

/// Sends an item's request with its body file as an upload the system carries on without the app.
package protocol BackgroundUploader: Sendable {
  /// Starts uploading `file` with `request` for `item`'s attempt `attempt`; returns once the system took it.
  func upload(_ request: HTTPRequest, fromFile file: URL, item: OutboxItem.ID, attempt: Int) async throws
  /// The items whose uploads the system still holds, running or waiting to run.
  func itemsInFlight() async -> Set<OutboxItem.ID>
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

/// The events of a background session being delivered to a relaunched app: the handler the app got from
/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` is called, on the main actor, once the
/// session said every event was delivered *and* every outcome was recorded, so that the system suspends the app only
/// after the store committed them.
package final class BackgroundEvents: Sendable {
  private struct State {
    var recording = 0
    var delivered = false
    var waiting = false

    /// Whether the handler goes now; it goes once. The session's "delivered" is kept until a handler takes it: the
    /// session may be made, and deliver, before the app hands its handler over.
    mutating func fires() -> Bool {
      guard waiting, delivered, recording == 0 else { return false }
      waiting = false
      delivered = false
      return true
    }
  }

  private let state = Locked(State())
  /// The app's handler: UIKit gives it to main-actor code and expects it called there.
  @MainActor private var handler: (() -> Void)?

  package init() {}

  /// Keeps the app's handler, to call once the events are delivered and recorded.
  @MainActor package func waitForEvents(then handler: @escaping () -> Void) {
    // A handler handed over before the last one was called: the last one goes now, rather than never.
    let previous = self.handler
    self.handler = handler
    previous?()
    if state.withLock({ state in
      state.waiting = true
      return state.fires()
    }) {
      self.handler = nil
      handler()
    }
  }

  /// An outcome began to be recorded.
  package func recordingBegan() {
    state.withLock { $0.recording += 1 }
  }

  /// An outcome was recorded.
  package func recordingEnded() {
    if state.withLock({ state in
      state.recording -= 1
      return state.fires()
    }) {
      fire()
    }
  }

  /// The session delivered every event.
  package func eventsDelivered() {
    if state.withLock({ state in
      state.delivered = true
      return state.fires()
    }) {
      fire()
    }
  }

  private func fire() {
    Task { @MainActor in
      let handler = self.handler
      self.handler = nil
      handler?()
    }
  }
}

/// The transport of the client a handoff goes through: the client's interceptors and stages run as for any call (a
/// fresh token, cookies, default headers), and the request they leave is given to the uploader instead of being sent.
/// It answers `202 Accepted` carrying ``header`` at once; the item's own answer comes later, from the upload.
struct HandoffTransport: HTTPTransport {
  /// Names the item and its attempt (``BackgroundTaskTag``) on the way in; says "handed-off" on the answer.
  static let header = HTTPField.Name("Courier-Outbox-Handoff")!

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
    request.headerFields[Self.header] = nil
    try await markHandedOff(item)
    do {
      try await uploader.upload(request, fromFile: file, item: item, attempt: attempt)
    } catch {
      // No upload holds it: the attempt fails as any would, and is recorded.
      try? await unmarkHandedOff(item, attempt)
      throw error
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
    var configuration = client.configuration
    configuration.transport = HandoffTransport(
      uploader: uploader,
      markHandedOff: { [store, clock = self.configuration.clock] id in try await store.markHandedOff(id, at: clock.now)
      },
      unmarkHandedOff: { [store] id, attempt in try await store.clearHandoff(id, attempt: attempt) })
    handoffClient = APIClient(configuration: configuration)
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
      let response = RecordedResponse(status: head.status, headerFields: head.headerFields, body: body)
      let decision = DeliveryDecision.decide(
        status: head.status, headerFields: head.headerFields, now: configuration.clock.now)
      if case .delivered = decision {
        _ = await settleDelivery(item, response: response, bodyFile: bodyFile, claimingNext: false)
      } else {
        await settle(item, decision: decision, response: response)
      }
    case .failed(let error):
      await settle(item, decision: DeliveryDecision.decide(failure: error), response: nil)
    }
    // The outcome could not be recorded: the item is sent again, with its key, rather than its lane waiting for an
    // outcome that came already. Only this attempt's handoff: the item may have been handed off again meanwhile.
    try? await store.clearHandoff(id, attempt: attempt)
    wakeUp()
  }

  /// Undoes the handoffs whose uploads the system no longer holds (the app was ended before it could record their
  /// outcome, or the uploads were lost): those items are sent again, with their keys.
  func reconcileHandoffs() async {
    guard let handedOff = try? await store.handedOffItems(), !handedOff.isEmpty else { return }
    let alive = await backgroundUploader?.itemsInFlight() ?? []
    for (item, _) in handedOff where !alive.contains(item.id) {
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
  ///   _ = outbox.handleEventsForBackgroundURLSession(identifier, completionHandler: completionHandler)
  /// }
  /// ```
  ///
  /// The outbox makes its session again (the system delivers the events to it), records every upload's outcome, and
  /// then calls `completionHandler` on the main actor, after which the system may suspend the app.
  @MainActor
  public func handleEventsForBackgroundURLSession(
    _ identifier: String, completionHandler: @escaping () -> Void
  ) -> Bool {
    guard Self.hasBackgroundSessions, identifier == configuration.backgroundSessionIdentifier, bodyFiles != nil
    else { return false }
    backgroundEvents.waitForEvents(then: completionHandler)
    Task { await start() }
    return true
  }
}
