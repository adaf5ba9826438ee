import Courier
import Foundation

/// The events of a background session being delivered to a relaunched app: the handler the app got from
/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` is called, on the main actor, once the
/// session said every event was delivered *and* every outcome was recorded, so that the system suspends the app only
/// after the store committed them.
package final class BackgroundEvents: Sendable {
  private struct State {
    var recording = 0
    var delivered = false
    var waiting = false
    /// Handlers on their way to the main actor.
    var firing = 0

    /// Whether the handler goes now; it goes once. The session's "delivered" is kept until a handler takes it: the
    /// session may be made, and deliver, before the app hands its handler over. A handler that goes is counted as
    /// on its way here, under the same lock as the last outcome's end: the events are never idle in between.
    mutating func fires() -> Bool {
      guard waiting, delivered, recording == 0 else { return false }
      waiting = false
      delivered = false
      firing += 1
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
      state.withLock { $0.firing -= 1 }
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
      self.state.withLock { $0.firing -= 1 }
    }
  }

  /// Whether no outcome is being recorded and no handler is on its way.
  package var isIdle: Bool {
    state.withLock { $0.recording == 0 && $0.firing == 0 }
  }
}
