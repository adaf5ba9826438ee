import Foundation
import HTTPTypes

/// One deadline for the work of a call: connecting, sending, the response head and, for ``APIClient/send(_:)``, the
/// whole body, the same on every transport and to the millisecond, whatever the engine does with timeouts of its
/// own (libcurl truncates sub-second ones; AsyncHTTPClient's covers the head only).
enum Deadline {
  /// The work ran past its deadline and was cancelled; `underlying` is what it threw then.
  struct Expired: Error {
    let underlying: any Error
  }

  /// Runs `operation`, cancelling it and throwing ``Expired`` when it is not done within `seconds`. Cancelling the
  /// calling task cancels it too.
  static func run<Result: Sendable>(
    seconds: TimeInterval,
    _ operation: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    let expired = Locked(false)
    let work = Task { try await operation() }
    let timer = Task {
      do { try await sleep(seconds: seconds) } catch { return }
      expired.withLock { $0 = true }
      work.cancel()
    }
    defer { timer.cancel() }
    do {
      let result = try await withTaskCancellationHandler {
        try await work.value
      } onCancel: {
        work.cancel()
      }
      // Work cut short by the deadline may end without an error (a body stream that stops early); never hand it on.
      if expired.withLock({ $0 }) { throw Expired(underlying: CancellationError()) }
      return result
    } catch let error as Expired {
      throw error
    } catch {
      if expired.withLock({ $0 }) { throw Expired(underlying: error) }
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
