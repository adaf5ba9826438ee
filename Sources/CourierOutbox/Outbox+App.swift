import Courier
import Foundation

// Where an app keeps its outbox, and what it does as the app comes and goes: platform-neutral logic, called by the
// thin Apple glue of Outbox+Apple.swift.
extension Outbox {
  /// The path of an outbox database of its own in the app's Application Support folder (the XDG data folder on
  /// Linux): `<Application Support>/<folder>/outbox.sqlite`, the folder made if missing. The folder is, by default,
  /// `<bundle identifier>/CourierOutbox` — apps outside a sandbox share Application Support — or `CourierOutbox`
  /// without one.
  ///
  /// On iOS, tvOS, watchOS and visionOS the folder and the database's files are protected
  /// `completeUntilFirstUserAuthentication` — a locked phone can still send in the background, which `complete` would
  /// prevent — and on Apple platforms the folder is excluded from backups: pending writes belong to this device's
  /// session, not to a restore on another. Both are best effort: a file system without them leaves the outbox working.
  ///
  /// On tvOS the folder is in Caches instead: an Apple TV app may keep only a little data that the system does not
  /// purge, and its Application Support folder cannot be made on the device. The system may purge Caches while the
  /// app is not running: writes still waiting then are lost with it.
  public static func defaultPath(folder: String? = nil) throws -> String {
    #if os(tvOS)
    let base = FileManager.SearchPathDirectory.cachesDirectory
    #else
    let base = FileManager.SearchPathDirectory.applicationSupportDirectory
    #endif
    let support = try FileManager.default.url(for: base, in: .userDomainMask, appropriateFor: nil, create: true)
    let name = folder ?? Bundle.main.bundleIdentifier.map { "\($0)/CourierOutbox" } ?? "CourierOutbox"
    let directory = support.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    AppStorage.protect(directory)
    return directory.appendingPathComponent("outbox.sqlite").path
  }

  /// Sends everything that can go now — items waiting out a backoff after a failed attempt too, though never before a
  /// server's `Retry-After` — and returns once nothing more can go: what an app's background processing task runs (on
  /// iOS, tvOS and visionOS `drain(in:)` runs it for a `BGTask`). An attempt that fails meanwhile waits out its new
  /// backoff.
  ///
  /// Returns `true` when nothing waits any more; `false` when items remain that cannot go now (offline, a paused
  /// lane, a constraint, a server's `Retry-After`), or when the calling task was cancelled first. The items stay, to
  /// be sent next time.
  public func drainUntilDone() async -> Bool {
    let asked = passes
    // The caller has time to send in: a background task the system launched.
    mayClaim = true
    defer {
      // An outbox that does not follow the lifecycle would never hear the foreground: the task over (also when its
      // time ran out), it sends again.
      if inBackgroundTask, !configuration.observesAppLifecycle {
        isActive = true
        mayClaim = true
        // What was cut, or waited while nothing could start, goes now.
        wakeUp()
      }
      inBackgroundTask = false
      // A background task ends: without the foreground, nothing more starts.
      if !isActive { mayClaim = false }
    }
    drain()
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        settleWaiters.append((after: asked, continuation: continuation))
      }
    } onCancel: {
      Task { await self.releaseSettleWaiters(all: true) }
    }
    guard !Task.isCancelled else { return false }
    return (try? await store.waitingCount()) == 0
  }

  /// Returns once the lanes sending now have given their places back: their attempts finished and recorded, and what
  /// they had claimed next given back. What the app waits for, in the time the system gives it, when it leaves the
  /// foreground: the lanes' last writes come before the time is given back, not after (a process suspended while it
  /// writes to a database in a shared container is ended).
  ///
  /// Lanes that start later are not waited for (none starts while the app has no time to send in), and the wait ends
  /// early once the app has time of its own again: the foreground, or a background task, whose expiry cuts what it
  /// started.
  package func finishAttemptsInFlight() async {
    let sending = Array(laneRunners.values)
    guard !sending.isEmpty else { return }
    leaveWaitersGiven &+= 1
    let id = leaveWaitersGiven
    await withCheckedContinuation { continuation in
      leaveWaiters[id] = continuation
      Task { await self.releaseLeaveWaiter(id, once: sending) }
    }
  }

  /// Releases the caller of ``finishAttemptsInFlight()`` numbered `id` once `runners` have ended, unless it was
  /// released before.
  func releaseLeaveWaiter(_ id: UInt64, once runners: [Task<Void, Never>]) async {
    for runner in runners { await runner.value }
    leaveWaiters.removeValue(forKey: id)?.resume()
  }

  /// Releases every caller of ``finishAttemptsInFlight()``.
  func releaseLeaveWaiters() {
    let waiting = leaveWaiters.values
    leaveWaiters = [:]
    for waiter in waiting { waiter.resume() }
  }

  /// The app was launched in the background for its background session's events: no attempt starts until it becomes
  /// active, which the outbox hears from now on. An outbox that does not follow the app's lifecycle would never hear
  /// it, and assumes nothing.
  func launchedForEvents() {
    // The foreground it heard of is the app's own: the events came while it was active.
    guard configuration.observesAppLifecycle, !heardActive else { return }
    observeLifecycle()
    isActive = false
    mayClaim = false
  }

  /// The app came to the foreground: send what waits now, backoffs included (never before a server's
  /// `Retry-After`). An outbox the app stopped stays stopped.
  package func appBecameActive() {
    isActive = true
    heardActive = true
    mayClaim = true
    guard isRunning else { return }
    drain()
  }

  /// The app left the foreground: no attempt starts from now on; those in flight finish in the background time
  /// `system` gives (all of them are cut when it runs out), and the time is given back once they did.
  package func appEnteredBackground(system: any BackgroundSystem) async {
    let end = system.beginBackgroundTime(reason: "Finishing the outbox's sends in flight") { [weak self] in
      await self?.backgroundTimeExpired()
    }
    await finishInBackground(then: end)
  }

  /// Stops claiming, waits for the attempts in flight, then calls `end`, which gives the background time back.
  func finishInBackground(then end: @Sendable () -> Void) async {
    isActive = false
    heardActive = false
    mayClaim = false
    await finishAttemptsInFlight()
    end()
  }

  /// The app's background time ran out: no attempt starts, and those in flight are cut (their items are sent again,
  /// with their keys, once the app may send); returns once they were, and their cuts recorded. An app that came back
  /// to the foreground meanwhile goes on sending.
  package func backgroundTimeExpired() async {
    for runner in cutAttempts() { await runner.value }
  }

  /// What ``backgroundTimeExpired()`` does at once: unless the app is active, no attempt starts, and the lane runners
  /// are cut; returns them.
  func cutAttempts() -> [Task<Void, Never>] {
    guard !isActive else { return [] }
    mayClaim = false
    let runners = Array(laneRunners.values)
    for runner in runners { runner.cancel() }
    return runners
  }

  /// The system launched or woke the app for a background task (`BGTask`): unless the app was heard coming to the
  /// foreground, it is in the background, and what the task starts ends with the task's time
  /// (``backgroundTimeExpired()``, ``drainUntilDone()``). The app coming to the foreground is heard from now on.
  package func beganBackgroundTask() {
    observeLifecycle()
    guard !heardActive else { return }
    isActive = false
    inBackgroundTask = true
  }
}
