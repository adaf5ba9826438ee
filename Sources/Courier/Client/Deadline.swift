import Foundation
import HTTPTypes

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

  /// When the work last received something: the start, the response head, each body chunk.
  final class Activity: Sendable {
    private let last = Locked(Uptime.now)
    func touch() { last.withLock { $0 = Uptime.now } }
    var idleSeconds: TimeInterval { last.withLock { $0.elapsed() } }
  }

  /// Runs `operation`, cancelling it and throwing ``Expired`` when it is not done within `seconds`, or when `idle`
  /// seconds pass without `activity` being touched. Cancelling the calling task cancels it too.
  ///
  /// Without an idle limit, the deadline goes to `timer`, the client's shared timer, so a call starts no timer task
  /// of its own.
  static func run<Result: Sendable>(
    seconds: TimeInterval,
    idle: TimeInterval? = nil,
    activity: Activity? = nil,
    timer shared: DeadlineTimer? = nil,
    _ operation: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    let work = Task { try await operation() }
    if let shared, idle == nil, seconds.isFinite {
      let token = shared.register(timeout: seconds) { work.cancel() }
      let result: Result
      do {
        result = try await withTaskCancellationHandler {
          try await work.value
        } onCancel: {
          work.cancel()
        }
      } catch {
        guard shared.unregister(token) else { throw (error as? Expired) ?? Expired(underlying: error, idle: nil) }
        throw error
      }
      // Work cut short by the deadline may end without an error (a body stream that stops early); never hand it on.
      guard shared.unregister(token) else { throw Expired(underlying: CancellationError(), idle: nil) }
      return result
    }
    let expired = Locked<Expired?>(nil)
    let timer = Task {
      let start = Uptime.now
      while true {
        let left = seconds - start.elapsed()
        var wait = left
        if let idle, let activity { wait = min(wait, idle - activity.idleSeconds) }
        if wait > 0 {
          do { try await sleep(seconds: wait) } catch { return }
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

  /// The timeout handed to a transport: the call's, rounded up to whole seconds plus one, so that an engine's own
  /// timer (truncated below a second by libcurl) never fires before the call's deadline.
  static func transportTimeout(for seconds: TimeInterval) -> TimeInterval {
    guard seconds.isFinite else { return seconds }
    return max(1, seconds.rounded(.up)) + 1
  }
}

/// A failure after the response head arrived, carrying the head out of the deadline's task.
struct FailureAfterHead: Error {
  let underlying: any Error
  let response: HTTPResponse
}
