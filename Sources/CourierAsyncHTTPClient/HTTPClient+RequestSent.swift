import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

extension HTTPClient {
  /// Executes a request whose body (if any) is already in memory, calling `requestSent` once the request head has
  /// been written to a connection, and returns as soon as the response head has arrived; the response body streams
  /// from the connection with backpressure, as with `execute(_:deadline:)`.
  ///
  /// AsyncHTTPClient's async API reports nothing between queueing a request and its response head when there is no
  /// body to pull, so a call that must know when its request went out (Courier's `started` event, `onRequestStarted`)
  /// runs through the delegate API, whose `didSendRequestHead` is that moment. A refused connection, an unknown host
  /// or a failed TLS handshake fails the call without `requestSent` having run.
  func execute(
    _ request: HTTPClientRequest,
    buffered body: ByteBuffer?,
    deadline: NIODeadline,
    requestSent: @escaping @Sendable () -> Void
  ) async throws -> HTTPClientResponse {
    var delegateRequest = try HTTPClient.Request(
      url: request.url, method: request.method, headers: request.headers, body: body.map { .byteBuffer($0) })
    delegateRequest.tlsConfiguration = request.tlsConfiguration
    let demand = BodyDemand()
    let made = ResponseBodyProducer.makeSequence(
      backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8), finishOnDeinit: false, delegate: demand)
    // The delegate API's deadline would also cover the body; as with `execute(_:deadline:)`, this one ends when the
    // response head arrives (which may happen before the timer is even scheduled).
    let expiry = HeadExpiry()
    let delegate = SentSignallingDelegate(
      source: made.source, demand: demand, requestSent: requestSent, headArrived: expiry.headArrived)
    let head = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        delegate.awaitHead(continuation)
        let task = self.execute(request: delegateRequest, delegate: delegate)
        expiry.schedule(
          task.eventLoop.scheduleTask(deadline: deadline) { task.fail(reason: HTTPClientError.deadlineExceeded) })
        task.futureResult.whenComplete { result in
          expiry.headArrived()
          if case .failure(let error) = result { delegate.fail(error) }
        }
        demand.attach(task)
      }
    } onCancel: {
      demand.cancel()
    }
    return HTTPClientResponse(
      version: head.version, status: head.status, headers: head.headers, body: .stream(made.sequence))
  }
}

/// The timer that fails a request whose response head has not arrived by its deadline; cancelled when the head
/// arrives, also when that happens before the timer was scheduled.
final class HeadExpiry: Sendable {
  private let state = NIOLockedValueBox<(arrived: Bool, timer: Scheduled<Void>?)>((false, nil))

  /// Keeps `timer`, or cancels it at once when the head has already arrived.
  func schedule(_ timer: Scheduled<Void>) {
    let arrived = state.withLockedValue { state in
      state.timer = timer
      return state.arrived
    }
    if arrived { timer.cancel() }
  }

  /// The head arrived (or the request ended): the timer is no longer needed.
  func headArrived() {
    state.withLockedValue { state -> Scheduled<Void>? in
      state.arrived = true
      return state.timer
    }?.cancel()
  }
}

/// The response body as AsyncHTTPClient's delegate hands it over, read as an async sequence.
typealias ResponseBodyProducer = NIOThrowingAsyncSequenceProducer<
  ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, BodyDemand
>

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

/// Receives one request's events from AsyncHTTPClient: the head written, the response head, body parts, the end.
final class SentSignallingDelegate: HTTPClientResponseDelegate, Sendable {

  private let source: ResponseBodyProducer.Source
  private let demand: BodyDemand
  private let requestSent: @Sendable () -> Void
  private let head = NIOLockedValueBox<CheckedContinuation<HTTPResponseHead, any Error>?>(nil)
  /// Runs when the response head arrives.
  private let headArrived: @Sendable () -> Void

  init(
    source: ResponseBodyProducer.Source, demand: BodyDemand, requestSent: @escaping @Sendable () -> Void,
    headArrived: @escaping @Sendable () -> Void
  ) {
    self.source = source
    self.demand = demand
    self.requestSent = requestSent
    self.headArrived = headArrived
  }

  func awaitHead(_ continuation: CheckedContinuation<HTTPResponseHead, any Error>) {
    head.withLockedValue { $0 = continuation }
  }

  /// Fails the call: before the response head, by throwing from `execute`; after it, by ending the body with the
  /// error.
  func fail(_ error: any Error) {
    if let waiting = takeHead() {
      waiting.resume(throwing: error)
    } else {
      source.finish(error)
    }
    demand.release()
  }

  private func takeHead() -> CheckedContinuation<HTTPResponseHead, any Error>? {
    head.withLockedValue { head in
      defer { head = nil }
      return head
    }
  }

  func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
    requestSent()
  }

  func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
    headArrived()
    takeHead()?.resume(returning: head)
    return task.eventLoop.makeSucceededVoidFuture()
  }

  func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
    switch source.yield(buffer) {
    case .produceMore, .dropped:
      return task.eventLoop.makeSucceededVoidFuture()
    case .stopProducing:
      let promise = task.eventLoop.makePromise(of: Void.self)
      demand.park(promise)
      return promise.futureResult
    }
  }

  func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
    fail(error)
  }

  func didFinishRequest(task: HTTPClient.Task<Void>) throws {
    if let waiting = takeHead() {
      waiting.resume(throwing: HTTPClientError.remoteConnectionClosed)
    }
    source.finish()
  }
}
