import Foundation
import HTTPTypes

// Step 4 of a call (see the walk-through in CallEngine.swift): one deadline over everything that follows,
// kept by the client's timer.

/// One deadline for the work of a call: connecting, sending, the response head and, for ``APIClient/send(_:)``, the
/// whole body, the same on every transport and to the millisecond, whatever the engine does with timeouts of its
/// own (libcurl truncates sub-second ones; AsyncHTTPClient's covers the head only).
enum Deadline {
  /// The work ran past its deadline (or went `idle` seconds without a byte) and was cancelled; `underlying` is what
  /// it threw then.
  struct Expired: Error {
    let underlying: any Error
    var idle: TimeInterval?
  }

  /// What a call that went `idle` seconds without a byte says: the same whether the limit ended the call's work
  /// (``run(seconds:idle:activity:timer:_:)``) or a stream's body read after the call returned (`IdleLimitedChunks`).
  static func idleExpiry(_ idle: TimeInterval) -> String {
    "No bytes arrived for \(idle) s, the call's idle timeout"
  }

  /// When the work last received something: the start, the response head, each body chunk.
  final class Activity: Sendable {
    private let clock: any CallClock
    private let last: Locked<TimeInterval>
    init(clock: any CallClock) {
      self.clock = clock
      last = Locked(clock.uptime)
    }
    func touch() {
      let now = clock.uptime
      last.withLock { $0 = now }
    }
    var idleSeconds: TimeInterval {
      let now = clock.uptime
      return now - last.withLock { $0 }
    }
  }

  /// Runs `operation`, cancelling it and throwing ``Expired`` when it is not done within `seconds`, or when `idle`
  /// seconds pass without `activity` being touched. Cancelling the calling task cancels it too.
  ///
  /// Without an idle limit, the deadline goes to `timer`, the client's shared timer, so a call starts no timer task
  /// of its own; with one, a task waits on the timer's clock.
  static func run<Result: Sendable>(
    seconds: TimeInterval,
    idle: TimeInterval? = nil,
    activity: Activity? = nil,
    timer shared: DeadlineTimer,
    _ operation: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    let work = Task { try await operation() }
    if idle == nil, seconds.isFinite {
      // Work cut short by the deadline may end without an error (a body stream that stops early): `kept` never hands
      // it on.
      return try await kept(within: seconds, by: shared, onExpiry: { work.cancel() }) {
        try await withTaskCancellationHandler {
          try await work.value
        } onCancel: {
          work.cancel()
        }
      }
    }
    let expired = Locked<Expired?>(nil)
    let clock = shared.clock
    let timer = Task {
      let start = clock.uptime
      while true {
        let left = seconds - (clock.uptime - start)
        var wait = left
        if let idle, let activity { wait = min(wait, idle - activity.idleSeconds) }
        if wait > 0 {
          do { try await clock.sleep(seconds: wait) } catch { return }
          continue
        }
        let reason = left <= 0 ? nil : idle
        expired.withLock { $0 = Expired(underlying: CancellationError(), idle: reason) }
        work.cancel()
        return
      }
    }
    defer { timer.cancel() }
    return try await finish(work, expired: expired)
  }

  /// Runs `operation` with its deadline registered with `timer`, which calls `expire` (cancelling the task the work
  /// runs in) when it is not done within `seconds`; throws ``Expired`` when the deadline passed, also when `operation`
  /// finished just as it did.
  private static func kept<Result>(
    within seconds: TimeInterval,
    by timer: DeadlineTimer,
    onExpiry expire: @escaping @Sendable () -> Void,
    _ operation: () async throws -> Result
  ) async throws -> Result {
    let token = timer.register(timeout: seconds, expire: expire)
    let result: Result
    do {
      result = try await operation()
    } catch {
      guard timer.unregister(token) else { throw (error as? Expired) ?? Expired(underlying: error, idle: nil) }
      throw error
    }
    guard timer.unregister(token) else { throw Expired(underlying: CancellationError(), idle: nil) }
    return result
  }

  /// Waits for `work`, cancelling it with the calling task, and throws ``Expired`` when the deadline cut it short.
  private static func finish<Result: Sendable>(
    _ work: Task<Result, any Error>,
    expired: Locked<Expired?>
  ) async throws -> Result {
    do {
      let result = try await withTaskCancellationHandler {
        try await work.value
      } onCancel: {
        work.cancel()
      }
      // Work cut short by the deadline may end without an error (a body stream that stops early); never hand it on.
      if let expiry = expired.withLock({ $0 }) { throw expiry }
      return result
    } catch let error as Expired {
      throw error
    } catch {
      if var expiry = expired.withLock({ $0 }) {
        expiry = Expired(underlying: error, idle: expiry.idle)
        throw expiry
      }
      throw error
    }
  }
}

/// A failure after the response head arrived, carrying the head out of the deadline's work.
struct FailureAfterHead: Error {
  let underlying: any Error
  let response: HTTPResponse
}
