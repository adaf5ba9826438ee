import Foundation
import HTTPTypes

// # A call, from an endpoint to its result
//
// Every call enters from its front-end — `send` and `value` (and their `EndpointConvertible` forms, which make an
// `Endpoint` first) in `Client/APIClient+Send.swift`, `stream` in `Transfer/APIClient+Stream.swift`, which
// `download` and `events` use — through one entry, `CallEngine.perform(_:progress:incremental:read:)`, and then
// passes through the five files of this folder in this order:
//
// 1. `Pipeline.swift` (this file): `CallEngine`, what an `APIClient` made of its configuration once, and `Call`, one
//    call's state in typed fields — its context (timeout, call ID, events, and the limit, idle timeout, redirect
//    policy, progress and start handler the pipeline reads; attributes only for interceptors' settings). `Call.run`
//    drives the stages below and finishes the call: every error becomes a `CourierError`, progress ends, the
//    `finished` event goes out, the minimum duration is kept.
// 2. `Pipeline+Request.swift`: the `HTTPRequest` and body the endpoint describes — base URL and path joined
//    (`RequestTarget`), query encoded, default, provided and endpoint headers, body encoded.
// 3. `Pipeline+Deadline.swift`: one deadline (and idle limit) over everything that follows: the work runs in a task
//    of its own, which the client's `DeadlineTimer` cancels when the deadline passes.
// 4. `Pipeline+Exchange.swift`: the configured interceptors, outermost first, then Courier's last stage — redirects
//    (`RedirectStage`), cookies, the cleartext policy, exchange observers, events and upload progress — and the
//    transport's `send`.
// 5. `Pipeline+Response.swift`: the response handed to the front-end's `read` — the body collected up to the limit,
//    the status checked, the value decoded (`ResponseDecoding`) or the error made, with the server's error body.
//
// A call never reaches back into its `APIClient`: everything it needs is in its `CallEngine` and its context.

/// What a client made of its configuration, once: the request defaults, the composed interceptor chain, the deadline
/// timer, the messages. Immutable; every call of the client holds it.
final class CallEngine: Sendable {
  /// The configuration the client was made with.
  let configuration: APIClient.Configuration
  let baseTarget: Result<RequestTarget, CourierError>?
  let defaultFields: HTTPFields
  /// Why a configured default header cannot be sent; every request then fails with it.
  let defaultFieldsProblem: CourierError?
  /// The configured interceptors in front of Courier's last stage and the transport, composed once.
  let chain: InterceptorNext
  /// The deadlines of this client's calls, kept by one timer of its clock.
  let deadlines: DeadlineTimer
  /// The messages ``CourierError/userMessage`` shows for this client's failures.
  let messages: UserMessages
  private let callCounter = Locked<UInt64>(0)

  init(_ configuration: APIClient.Configuration) {
    self.configuration = configuration
    deadlines = DeadlineTimer(clock: configuration.clock)
    messages = UserMessages(configuration)
    baseTarget = configuration.baseURL.map { url in
      Result { try RequestTarget(url: url) }.mapError { $0 as? CourierError ?? CourierError(.invalidURL, "\(url)") }
    }
    var fields = configuration.defaultHeaders
    let encodings = configuration.transport.supportedContentEncodings
    if fields[.acceptEncoding] == nil, !encodings.isEmpty,
      let field = try? HTTPHeader.acceptEncoding(encodings).validated()
    {
      fields.append(field)
    }
    defaultFields = fields
    defaultFieldsProblem = fields.lazy.compactMap { HTTPHeader.valueProblem($0.value, name: $0.name.rawName) }.first
    chain = Self.chain(
      configuration.interceptors, transport: configuration.transport, cookies: configuration.cookies,
      cleartext: CleartextPolicy(hosts: configuration.cleartextHosts))
  }

  /// The one entry of every call: makes the ``Call`` for `endpoint` and runs it, handing the response to `read`, which
  /// returns the call's result and the body bytes it read (`nil` when it leaves the body to the caller).
  /// `incremental` when the caller reads the body as it arrives (which is then not limited).
  func perform<Value, Result: Sendable>(
    _ endpoint: Endpoint<Value>,
    progress: TransferReporters?,
    incremental: Bool,
    read: @escaping @Sendable (Call, HTTPRequest, HTTPResponse, BodyStream) async throws -> (Result, Int64?)
  ) async throws -> Result {
    let call = Call(engine: self, endpoint: endpoint, progress: progress, incremental: incremental)
    return try await call.run { request, response, body in try await read(call, request, response, body) }
  }

  /// A new call's ID.
  func nextCallID() -> UInt64 {
    callCounter.withLock { counter in
      counter &+= 1
      return counter
    }
  }
}

/// One call: what it keeps of its endpoint, and its context.
///
/// The call keeps only what it needs of the endpoint, so that nothing after
/// ``init(engine:endpoint:progress:incremental:)`` depends on the endpoint's value type: generic code that is not
/// specialized for that type looks its metadata up at run time, each time.
struct Call: Sendable {
  let engine: CallEngine
  let context: CallContext
  /// The client clock's ``DelayClock/uptime`` when the call started.
  let started: TimeInterval
  /// The request the endpoint describes with its body, or why it could not be built.
  let built: Result<(request: HTTPRequest, body: BodyStream?), any Error>
  /// The endpoint's ``Endpoint/minimumDuration``.
  let minimumDuration: TimeInterval?

  /// A call of `endpoint` reporting to `progress`; `incremental` when the caller reads the body as it arrives (and
  /// the body is then not limited: a buffered call reads at most the endpoint's or the client's maximum).
  init<Value>(
    engine: CallEngine, endpoint: borrowing Endpoint<Value>, progress: TransferReporters?, incremental: Bool
  ) {
    self.engine = engine
    started = engine.deadlines.clock.uptime
    minimumDuration = endpoint.minimumDuration
    built = Result { try engine.makeRequest(endpoint) }
    let configuration = engine.configuration
    var context = CallContext(
      attributes: endpoint.attributes, timeout: endpoint.timeout ?? configuration.timeout, attempt: 1,
      callID: engine.nextCallID(), events: EventSink(configuration.eventHandler))
    context.deliversBodyIncrementally = incremental || progress?.download != nil
    context.maxResponseBytes = incremental ? nil : endpoint.maxResponseBytes ?? configuration.maxResponseBytes
    context.idleTimeout = endpoint.idleTimeout ?? configuration.idleTimeout
    context.redirects = endpoint.redirectPolicy ?? configuration.redirects
    context.transportStart = endpoint.transportStart
    context.progress = progress
    self.context = context
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
          let (result, received) = try await read(built, head, watched.reporting(to: progress?.download))
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
