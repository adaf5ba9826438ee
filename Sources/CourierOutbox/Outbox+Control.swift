import Courier
import Foundation
import HTTPTypes

// How the app starts, stops and drains the outbox, and waits for it.
extension Outbox {
  /// Starts sending what waits (an enqueue and ``drain()`` start it too); items left "sending" by a previous run are
  /// sent again with their key. Items of kinds not in ``Configuration/kinds`` are quarantined first.
  public func start() {
    observeLifecycle()
    guard loop == nil else { return }
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    wake = continuation
    loop = Task { [weak self] in await self?.run(wakes: stream) }
  }

  /// Starts following the app's lifecycle, when ``Configuration/observesAppLifecycle``: from the first start, or
  /// from a launch for the background session's events, whichever comes first.
  func observeLifecycle() {
    if lifecycle == nil, configuration.observesAppLifecycle {
      lifecycle = AppLifecycleObserver(outbox: self, center: configuration.notificationCenter)
    }
  }

  /// Whether the outbox is sending (started, and not stopped).
  var isRunning: Bool { loop != nil }

  /// Sends what waits now, also items waiting out a backoff (never before a server's `Retry-After`), and wakes the
  /// outbox if it was idle.
  public func drain() {
    // Items may have been enqueued within the app's own transactions meanwhile.
    waiting = nil
    ignoreBackoffOnce = true
    start()
    wakeUp()
  }

  /// Returns once no item is pending or sending (also when some became dead letters); throws `CancellationError`
  /// when the calling task is cancelled first.
  public func waitUntilDrained() async throws {
    start()
    while try await store.waitingCount() > 0 {
      try Task.checkCancellation()
      // In a shared store, other workers deliver what waits, and this one hears of their last delivery only by a
      // `NOTIFY`: the count is read again every second too, so that a drain's end never waits on a wake-up. (What is
      // left to send never waits on it: a worker that gives a lane back looks at it again itself.)
      let look: Task<Void, Never>? =
        store.isShared
        ? Task { [weak self, clock = configuration.clock] in
          try? await clock.sleep(seconds: 1)
          if !Task.isCancelled { await self?.releaseDrainWaiters() }
        } : nil
      defer { look?.cancel() }
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          drainWaiters.append(continuation)
          // The delivery loop reports the count when it wakes, and releases the waiters once it is zero.
          wakeUp()
        }
      } onCancel: {
        Task { await self.releaseDrainWaiters() }
      }
      try Task.checkCancellation()
    }
  }

  /// Releases the callers of `drainUntilDone()` that asked before pass `pass` began (all of them with `all`).
  func releaseSettleWaiters(settledBy pass: UInt64 = .max, all: Bool = false) {
    let (done, waiting) = settleWaiters.reduce(
      into: ([CheckedContinuation<Void, Never>](), [(after: UInt64, continuation: CheckedContinuation<Void, Never>)]())
    ) {
      if all || $1.after < pass { $0.0.append($1.continuation) } else { $0.1.append($1) }
    }
    settleWaiters = waiting
    for waiter in done { waiter.resume() }
  }

  /// Lets every caller of ``waitUntilDrained()`` look again: those not cancelled wait on.
  func releaseDrainWaiters() {
    for waiter in drainWaiters { waiter.resume() }
    drainWaiters = []
  }

  /// Stops sending; items in flight finish their attempt. ``start()`` sends again.
  public func stop() async {
    let running = loop
    loop = nil
    wake?.finish()
    wake = nil
    running?.cancel()
    await running?.value
    loopBusy = false
    releaseSettleWaiters(all: true)
  }
}
