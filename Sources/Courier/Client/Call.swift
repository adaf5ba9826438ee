import Foundation
import HTTPTypes

/// One call, from an endpoint to what its front-end makes of the response: the single pipeline behind
/// ``APIClient/send(_:)``, ``APIClient/stream(_:)`` and
/// ``APIClient/download(_:to:sha256:resumes:maxAttempts:replacesExistingFile:)``.
///
/// A call owns its context (attributes, timeout, call ID, events), builds the request, sends it through the
/// interceptors and the transport, hands the response head and body to its front-end, and then finishes whatever
/// happened: every error becomes a ``CourierError`` that knows about cancellation and carries the request and the
/// response head, progress ends, the finished event is sent, and the minimum duration is kept.
///
/// The call keeps only what it needs of the endpoint, so that nothing after ``init(client:endpoint:progress:incremental:)``
/// depends on the endpoint's value type: generic code that is not specialized for that type looks its metadata up
/// at run time, each time.
struct Call: Sendable {
  let client: APIClient
  let progress: TransferReporters?
  let context: CallContext
  let started = Uptime.now
  /// The request the endpoint describes with its body, or why it could not be built.
  let built: Result<(request: HTTPRequest, body: BodyStream?), any Error>
  /// The endpoint's ``Endpoint/minimumDuration``.
  let minimumDuration: TimeInterval?

  /// A call of `endpoint` reporting to `progress`; `incremental` when the caller reads the body as it arrives (and
  /// the body is then not limited: a buffered call reads at most the endpoint's or the client's maximum).
  init<Value>(
    client: APIClient, endpoint: borrowing Endpoint<Value>, progress: TransferReporters?, incremental: Bool
  ) {
    self.client = client
    self.progress = progress
    minimumDuration = endpoint.minimumDuration
    built = Result { try client.makeRequest(endpoint) }
    var attributes = endpoint.attributes
    if incremental || progress?.download != nil { attributes[IncrementalBodyKey.self] = true }
    if let progress { attributes[TransferReportersKey.self] = progress }
    if incremental {
      attributes[MaxResponseBytesKey.self] = nil
    } else if attributes[MaxResponseBytesKey.self] == nil {
      attributes[MaxResponseBytesKey.self] = client.configuration.maxResponseBytes
    }
    if let idle = client.configuration.idleTimeout, attributes[IdleTimeoutKey.self] == nil {
      attributes[IdleTimeoutKey.self] = idle
    }
    context = CallContext(
      attributes: attributes, timeout: endpoint.timeout ?? client.configuration.timeout, attempt: 1,
      callID: client.callCounter.withLock { counter in
        counter &+= 1
        return counter
      },
      events: EventSink(client.configuration.eventHandler))
  }

  /// Sends the request and hands the response to `read`, which returns the call's result and the body bytes it
  /// read (`nil` when the body is left to the caller).
  func run<Result: Sendable>(
    _ read:
      @escaping @Sendable (_ request: HTTPRequest, _ response: HTTPResponse, _ body: BodyStream) async throws -> (
        Result, Int64?
      )
  ) async throws -> Result {
    var request: HTTPRequest?
    var response: HTTPResponse?
    do {
      let (built, body) = try self.built.get()
      request = built
      try Task.checkCancellation()
      let idle = context[IdleTimeoutKey.self]
      let activity = idle.map { _ in Deadline.Activity() }
      let (result, head, received) = try await Deadline.run(
        seconds: context.timeout, idle: idle, activity: activity, timer: client.deadlines
      ) { [self] in
        let (head, responseBody) = try await client.chain(built, body, context)
        activity?.touch()
        progress?.upload?.finish(complete: false)
        do {
          let watched = activity.map { responseBody.touching($0) } ?? responseBody
          let (result, received) = try await read(built, head, watched.reporting(to: progress?.download))
          return (result, head, received)
        } catch {
          throw FailureAfterHead(underlying: error, response: head)
        }
      }
      response = head
      if let minimum = minimumDuration {
        try await client.waitForMinimumDuration(minimum, since: started)
      }
      finish(response: head, received: received, error: nil)
      return result
    } catch {
      var failure = failure(from: error, request: request)
      failure.messages = client.messages
      if failure.response == nil { failure.response = response }
      response = failure.response
      progress?.finish(complete: false)
      finish(response: response, received: nil, error: failure)
      if !failure.isCancellation, let minimum = minimumDuration {
        try await client.waitForMinimumDuration(minimum, since: started)
      }
      throw failure
    }
  }

  /// The whole of a body the caller does not stream, up to the call's limit; download progress ends with it.
  func collect(_ body: BodyStream) async throws -> Data {
    let data = try await body.collect(upTo: context[MaxResponseBytesKey.self] ?? .max)
    progress?.download?.finish(complete: true)
    return data
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
      idle.map { "No bytes arrived for \($0) s, the call's idle timeout" }
      ?? "The call did not finish within its timeout of \(context.timeout) s"
    var failure =
      expired
      ? CourierError(.timeout, expiry, request: request, response: head, underlyingError: error)
      : APIClient.cancellationAware(CourierError(transportFailure: error, request: request))
    if failure.response == nil { failure.response = head }
    return failure
  }

  /// Reports the finished call to the client's event handler.
  private func finish(response: HTTPResponse?, received: Int64?, error: CourierError?) {
    guard context.events.handler != nil else { return }
    let counters = context.events.counters
    context.events.send(
      .finished(
        callID: context.callID, duration: started.elapsed(), attempts: counters.attempts,
        bytesSent: counters.bytesSent, bytesReceived: received ?? 0, status: response?.status ?? error?.status,
        error: error))
  }
}
