import Foundation
import HTTPTypes

/// One call: what it keeps of its endpoint, and its context.
///
/// The call keeps only what it needs of the endpoint, so that nothing after
/// ``init(engine:endpoint:callID:progress:incremental:)`` depends on the endpoint's value type: generic code that is not
/// specialized for that type looks its metadata up at run time, each time.
struct Call: Sendable {
  let engine: CallEngine
  let context: CallContext
  /// The client clock's ``CallClock/uptime`` when the call started.
  let started: TimeInterval
  /// The request the endpoint describes with its body, or why it could not be built.
  let built: Result<(request: HTTPRequest, body: BodyStream?), any Error>
  /// The endpoint's ``Endpoint/minimumDuration``.
  let minimumDuration: TimeInterval?

  /// A call of `endpoint` reporting to `progress`; `incremental` when the caller reads the body as it arrives (and
  /// the body is then not limited: a buffered call reads at most the endpoint's or the client's maximum).
  init<Value>(
    engine: CallEngine, endpoint: borrowing Endpoint<Value>, callID: UInt64, progress: TransferReporters?,
    incremental: Bool
  ) {
    self.engine = engine
    started = engine.deadlines.clock.uptime
    minimumDuration = endpoint.minimumDuration
    built = Result { try engine.makeRequest(endpoint) }
    let configuration = engine.configuration
    var context = CallContext(
      attributes: endpoint.attributes, timeout: endpoint.timeout ?? configuration.timeout, attempt: 1,
      callID: callID, events: EventSink(configuration.eventHandler))
    context.deliversBodyIncrementally = incremental || progress?.download != nil
    context.maxResponseBytes = incremental ? nil : endpoint.maxResponseBytes ?? configuration.maxResponseBytes
    context.idleTimeout = endpoint.idleTimeout ?? configuration.idleTimeout
    context.redirects = endpoint.redirectPolicy ?? configuration.redirects
    context.transportStart = endpoint.transportStart
    context.progress = progress
    self.context = context
  }

  /// Sends the request and hands the response to `stage`, which returns the call's result and the body bytes it
  /// read (`nil` when the body is left to the caller).
  func run<Result: Sendable>(_ stage: ResponseStage<Result>) async throws -> Result {
    var request: HTTPRequest?
    var response: HTTPResponse?
    let progress = context.progress
    do {
      let (built, body) = try self.built.get()
      request = built
      try Task.checkCancellation()
      let idle = context.idleTimeout
      let activity = idle.map { _ in Deadline.Activity(clock: engine.deadlines.clock) }
      let context = self.context
      let work: @Sendable () async throws -> (Result, HTTPResponse, Int64?) = {
        let (head, responseBody) = try await engine.chain(built, body, context)
        activity?.touch()
        progress?.upload?.finish(complete: false)
        do {
          let watched = activity.map { responseBody.touching($0) } ?? responseBody
          let (result, received) = try await stage.read(self, built, head, watched.reporting(to: progress?.download))
          return (result, head, received)
        } catch {
          throw FailureAfterHead(underlying: error, response: head)
        }
      }
      let (result, head, received) = try await Deadline.run(
        seconds: context.timeout, idle: idle, activity: activity, timer: engine.deadlines, work)
      response = head
      if let minimum = minimumDuration {
        try await waitForMinimumDuration(minimum)
      }
      finish(response: head, received: received, error: nil)
      return result
    } catch {
      var failure = failure(from: error, request: request)
      failure.messages = engine.messages
      if failure.response == nil { failure.response = response }
      response = failure.response
      progress?.finish(complete: false)
      finish(response: response, received: nil, error: failure)
      if !failure.isCancellation, let minimum = minimumDuration {
        try await waitForMinimumDuration(minimum)
      }
      throw failure
    }
  }

  /// The ``CourierError`` for what the work threw: a timeout when the deadline passed, with the response head when
  /// one had arrived.
  private func failure(from error: any Error, request: HTTPRequest?) -> CourierError {
    var error = error
    var expired = false
    var idle: TimeInterval?
    if let deadline = error as? Deadline.Expired {
      expired = true
      idle = deadline.idle
      error = deadline.underlying
    }
    var head: HTTPResponse?
    if let afterHead = error as? FailureAfterHead {
      head = afterHead.response
      error = afterHead.underlying
    }
    if let own = error as? CourierError {
      head = head ?? own.response
      // Work that failed on its own just as the deadline passed keeps its own error.
      if expired, !own.isCancellation { expired = false }
    }
    if expired, context.events.isWaitingForNetwork {
      return CourierError(
        .noConnection, "The device stayed offline for the request's timeout of \(context.timeout) s", request: request)
    }
    let expiry =
      idle.map(Deadline.idleExpiry)
      ?? "The call did not finish within its timeout of \(context.timeout) s"
    var failure =
      expired
      ? CourierError(.timeout, expiry, request: request, response: head, underlyingError: error)
      : CourierError(transportFailure: error, request: request).cancellationAware()
    if failure.response == nil { failure.response = head }
    return failure
  }

  /// Sleeps until `minimum` seconds have passed since the call started; returns at once when cancelled.
  private func waitForMinimumDuration(_ minimum: TimeInterval) async throws {
    do {
      let clock = engine.deadlines.clock
      let left = minimum - (clock.uptime - started)
      if left > 0 { try await clock.sleep(seconds: left) }
    } catch {
      throw CourierError(.cancelled, "The request was cancelled during its minimum duration")
    }
  }

  /// Reports the finished call to the client's event handler.
  private func finish(response: HTTPResponse?, received: Int64?, error: CourierError?) {
    guard context.events.handler != nil else { return }
    let counters = context.events.counters
    context.events.send(
      .finished(
        callID: context.callID, duration: engine.deadlines.clock.uptime - started, attempts: counters.attempts,
        bytesSent: counters.bytesSent, bytesReceived: received ?? 0, status: response?.status ?? error?.status,
        error: error))
  }
}
