import Foundation
import HTTPTypes
import HTTPTypesFoundation

// Step 5 of a call (see the walk-through in CallEngine.swift): the interceptors, then Courier's last
// stage — redirects, cookies, the cleartext policy, exchange observers, events and upload progress — and the transport.

extension CallEngine {
  /// `interceptors` in front of Courier's last stage and `transport`. The last stage follows redirects by the
  /// call's policy, counts each request it hands to the transport, runs the call's transport-start handler before
  /// the first, reports upload progress as the transport takes the body, and reports each response head. `cookies`
  /// are attached to each request it hands on, and take what each response sets; plain http to a host `cleartext`
  /// does not allow is refused, on the first request and on every redirect.
  static func chain(
    _ interceptors: [any Interceptor],
    transport: any HTTPTransport,
    cookies: CookieJar?,
    cleartext: CleartextPolicy
  ) -> InterceptorNext {
    interceptors.chain { request, body, context in
      let stage = RedirectStage(policy: context.redirects) { request, body in
        if let refusal = cleartext.refusal(of: request) { throw refusal }
        guard let cookies else { return try await observed(request, body: body, context: context, over: transport) }
        var request = request
        cookies.attach(to: &request)
        let (response, responseBody) = try await observed(request, body: body, context: context, over: transport)
        cookies.store(from: response, for: request)
        return (response, responseBody)
      }
      return try await stage.run(request, body: body) { context.events.recordRedirect(to: $0) }
    }
  }

  /// Hands one request to `transport`, telling the call's exchange observers (tracing) about it.
  private static func observed(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    over transport: any HTTPTransport
  ) async throws -> (HTTPResponse, BodyStream) {
    let observers = context.exchangeObservers
    guard !observers.isEmpty else { return try await exchange(request, body: body, context: context, over: transport) }
    var request = request
    let finishers = observers.map { $0(&request) }
    do {
      let (response, responseBody) = try await exchange(request, body: body, context: context, over: transport)
      for finish in finishers { finish(.success(response)) }
      return (response, responseBody)
    } catch {
      for finish in finishers { finish(.failure(error)) }
      throw error
    }
  }

  /// The exchange itself: the body checked against its declared length and reporting upload progress, the
  /// transport's options made from the call's context, and the `started` event and start handler run once the
  /// request went out.
  private static func exchange(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    over transport: any HTTPTransport
  ) async throws -> (HTTPResponse, BodyStream) {
    let isFirst = context.events.countAttempt(bytes: body?.length ?? 0)
    var options = TransportOptions(context)
    // Every transport gets a streamed body that is refused when its bytes disagree with its declared length.
    let checked = body?.checkingDeclaredLength()
    let body = context.progress?.upload.flatMap { checked?.reporting(to: $0) } ?? checked
    let onStart = isFirst ? context.transportStart : nil
    let (response, responseBody): (HTTPResponse, BodyStream)
    if onStart != nil || (isFirst && context.events.handler != nil) {
      let sent = SentSignal()
      options.requestSent = { sent.fire() }
      let signalling = options
      (response, responseBody) = try await sent.whenFired(
        send: { try await transport.send(request, body: body, options: signalling) },
        then: {
          if context.events.handler != nil { context.events.send(.started(callID: context.callID, request: request)) }
          await onStart?()
        })
    } else {
      (response, responseBody) = try await transport.send(request, body: body, options: options)
    }
    if context.events.handler != nil {
      context.events.send(.responseReceived(callID: context.callID, response: response, attempt: context.attempt))
    }
    return (response, responseBody)
  }
}
