import Foundation
import HTTPTypes

// # A call, from an endpoint to its result
//
// A GET — `client.value(Endpoint<Page>.get("/products"))` over the default transport — runs through these files, in
// this order (measured: the files whose code the call ran). Each step calls forward only: no step calls a function of
// an earlier step's files. Code of an earlier step runs in a later one only as a closure it handed down — the work
// `Call.run` gives `Deadline.run`, the terminal stage `CallEngine+Exchange.swift` ends the chain with — or as a method
// of the call's state, which every step reads: its `CallContext.swift`, the `EventSink.swift` it reports to, and the
// client's clock (`CallClock.swift`).
//
// 0. The endpoint, described before the call: `Endpoint/Endpoint.swift`, `Endpoint/Endpoint+Factories.swift`
//    (`.get`), `Endpoint/Endpoint+Modifiers.swift`, with its query (`Encoding/QueryParameters.swift`,
//    `Encoding/URLQueryEncoder.swift`), attributes (`Attributes/Attributes.swift`) and accepted statuses
//    (`Endpoint/StatusCodeSet.swift`).
// 1. The front-end: `Client/APIClient+Send.swift` (`value`; `send`, and `stream` in `Transfer/APIClient+Stream.swift`,
//    which `download` and `events` use, enter the same way) makes the call's progress reporters
//    (`Transfer/TransferReporters.swift`) and enters `CallEngine.perform(_:progress:_:)` in `CallEngine.swift` (this
//    file), with the response stage it chose (step 6). `CallEngine` holds what the client made of its configuration
//    once; `perform` gives the call its ID and makes the `Call`.
// 2. `Call.swift`: one call's state in typed fields — its context (`CallContext.swift`: timeout, call ID, the limit,
//    idle timeout, redirect policy, progress and start handler the steps read; attributes only for interceptors'
//    settings) and its events (`EventSink.swift`). `Call.run` drives the steps below and finishes the call: every
//    error becomes a `CourierError` (`Errors/CourierError.swift`), progress ends, the `finished` event goes out
//    (`Interceptors/CourierEvent.swift`), the minimum duration is kept.
// 3. `CallEngine+Request.swift`, when the call is made: the `HTTPRequest` and body the endpoint describes — base URL
//    and path joined (`RequestTarget.swift`) and percent-encoded with the query (`Encoding/PercentEncoding.swift`,
//    `Encoding/URLQueryEncoder+PercentEncoding.swift`), default, provided and endpoint headers, the body encoded into
//    a `Body/BodyStream.swift`.
// 4. `Deadline.swift`: one deadline (and idle limit) over everything that follows: the work runs in a task of its
//    own, which the client's timer (`DeadlineTimer.swift`) cancels when the deadline passes, on the client's clock.
// 5. `CallEngine+Exchange.swift`: the configured interceptors (`Interceptors/Interceptor.swift`), outermost first,
//    composed once into a chain (`InterceptorChain.swift`), then Courier's last stage — redirects
//    (`Redirects/RedirectStage.swift`), cookies (`Cookies/CookieJar.swift`), the cleartext policy
//    (`CleartextPolicy.swift`), exchange observers (`Interceptors/ExchangeObservers.swift`, when tracing), events and
//    upload progress, the moment the request went out when the call asks for it (`SentSignal.swift`) — and the
//    transport's `send` with the call's `TransportOptions.swift`: `Transport/URLSessionTransport.swift`, its
//    `Transport/URLSessionTransport+Conversions.swift` and `Transport/URLSessionTransport+ExchangePath.swift`, one
//    `Transport/StreamingCall.swift` per exchange, fed by `Transport/SessionDelegate.swift` on its
//    `Transport/DelegateQueue.swift` through a `Transport/StreamingTaskDelegate.swift`, and the response's body a
//    `Body/BodyStream.swift` again (its field names through `Support/HTTPField+Common.swift`).
// 6. `CallEngine+Response.swift`: the response stage the front-end chose — the body collected up to the limit, the
//    status checked against the endpoint's, the value decoded with the endpoint's decoder (`ResponseDecoding.swift`)
//    or the error made, with the server's error body (`Client/APIResponse.swift` for `send`); or, for a stream, the
//    body handed on as it arrives (`Transfer/APIClient+Stream.swift`'s `ErrorTypedBody`).
//
// A call never reaches back into its `APIClient`: everything it needs is in its `CallEngine` and its context.
// `WalkThroughTests` checks that every file named here is there, that every file of `Pipeline/` is named, and that
// no step calls an earlier one.

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

  /// The one entry of every call: makes the ``Call`` for `endpoint` and runs it, its response made into the result by
  /// `stage` (step 6).
  func perform<Value, Result: Sendable>(
    _ endpoint: Endpoint<Value>,
    progress: TransferReporters?,
    _ stage: ResponseStage<Result>
  ) async throws -> Result {
    let call = Call(
      engine: self, endpoint: endpoint, callID: nextCallID(), progress: progress, incremental: stage.incremental)
    return try await call.run(stage)
  }

  /// A new call's ID.
  func nextCallID() -> UInt64 {
    callCounter.withLock { counter in
      counter &+= 1
      return counter
    }
  }
}
