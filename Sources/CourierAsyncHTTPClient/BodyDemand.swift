import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The reader's side of a delegate-driven response body: it asks for more bytes, or stops the request when the
/// reader is gone or the calling task was cancelled.
final class BodyDemand: NIOAsyncSequenceProducerDelegate, Sendable {
  private struct State {
    var task: HTTPClient.Task<Void>?
    /// The delegate's answer to a body part, held back until the reader wants more.
    var parked: EventLoopPromise<Void>?
    /// The reader asked for more before the delegate parked.
    var wantsMore = false
    var cancelled = false
  }

  private let state = NIOLockedValueBox(State())

  func attach(_ task: HTTPClient.Task<Void>) {
    let cancelled = state.withLockedValue { state in
      state.task = task
      return state.cancelled
    }
    if cancelled { task.cancel() }
  }

  /// Holds `promise` until the reader wants more (at once if it already does).
  func park(_ promise: EventLoopPromise<Void>) {
    let ready = state.withLockedValue { state in
      if state.wantsMore || state.cancelled {
        state.wantsMore = false
        return true
      }
      state.parked = promise
      return false
    }
    if ready { promise.succeed() }
  }

  /// Completes a parked promise (a delegate's future must always complete).
  func release() {
    state.withLockedValue { state -> EventLoopPromise<Void>? in
      defer { state.parked = nil }
      return state.parked
    }?.succeed()
  }

  func produceMore() {
    let parked = state.withLockedValue { state -> EventLoopPromise<Void>? in
      guard let parked = state.parked else {
        state.wantsMore = true
        return nil
      }
      state.parked = nil
      return parked
    }
    parked?.succeed()
  }

  func didTerminate() {
    cancel()
  }

  /// Cancels the request (now, or as soon as it has been started).
  func cancel() {
    let task = state.withLockedValue { state in
      state.cancelled = true
      return state.task
    }
    task?.cancel()
    release()
  }
}
