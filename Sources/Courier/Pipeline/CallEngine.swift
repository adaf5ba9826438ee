import Foundation
import HTTPTypes

// # A call, from an endpoint to its result
//
// Every call enters from its front-end — `send` and `value` (and their `EndpointConvertible` forms, which make an
// `Endpoint` first) in `Client/APIClient+Send.swift`, `stream` in `Transfer/APIClient+Stream.swift`, which `download`
// and `events` use — through one entry, `CallEngine.perform(_:progress:_:)`, with the response stage they chose
// (`ResponseStage`, step 6), and then runs through these files, in this order, each calling only forward:
//
// 1. `CallEngine.swift` (this file): what an `APIClient` made of its configuration once; `perform` makes the `Call`.
// 2. `Call.swift`: one call's state in typed fields — its context (timeout, call ID, events, and the limit, idle
//    timeout, redirect policy, progress and start handler the stages read; attributes only for interceptors'
//    settings). `Call.run` drives the stages below and finishes the call: every error becomes a `CourierError`,
//    progress ends, the `finished` event goes out, the minimum duration is kept.
// 3. `CallEngine+Request.swift`: the `HTTPRequest` and body the endpoint describes — base URL and path joined
//    (`RequestTarget.swift`) and percent-encoded with the query (`Encoding/PercentEncoding.swift`), default, provided
//    and endpoint headers, body encoded.
// 4. `Deadline.swift`: one deadline (and idle limit) over everything that follows: the work runs in a task of its
//    own, which the client's timer (`DeadlineTimer.swift`) cancels when the deadline passes.
// 5. `CallEngine+Exchange.swift`: the configured interceptors, outermost first, then Courier's last stage — redirects
//    (`Redirects/RedirectStage.swift`), cookies, the cleartext policy (`CleartextPolicy.swift`), exchange observers,
//    events and upload progress, the moment the request went out (`SentSignal.swift`) — and the transport's `send`.
// 6. `CallEngine+Response.swift`: the response stage the front-end chose — the body collected up to the limit, the
//    status checked, the value decoded with the endpoint's decoder (`ResponseDecoding.swift`) or the error made, with
//    the server's error body; or, for a stream, the body handed on as it arrives (`Transfer/APIClient+Stream.swift`'s
//    `ErrorTypedBody`).
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

  /// The one entry of every call: makes the ``Call`` for `endpoint` and runs it, its response made into the result by
  /// `stage` (step 6).
  func perform<Value, Result: Sendable>(
    _ endpoint: Endpoint<Value>,
    progress: TransferReporters?,
    _ stage: ResponseStage<Result>
  ) async throws -> Result {
    let call = Call(engine: self, endpoint: endpoint, progress: progress, incremental: stage.incremental)
    return try await call.run { request, response, body in try await stage.read(call, request, response, body) }
  }

  /// A new call's ID.
  func nextCallID() -> UInt64 {
    callCounter.withLock { counter in
      counter &+= 1
      return counter
    }
  }
}
