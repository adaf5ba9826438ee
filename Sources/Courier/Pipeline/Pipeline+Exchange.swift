import Foundation
import HTTPTypes
import HTTPTypesFoundation

// The fourth of a call's five files (see the walk-through in Pipeline.swift): the interceptors, then Courier's last
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

/// Follows redirects between the interceptors and the transport, the same way on every transport: each hop is one
/// request handed to the transport, built by the rules of ``RedirectPolicy``.
struct RedirectStage {
  let policy: RedirectPolicy
  /// Hands one request to the transport.
  let send: (HTTPRequest, BodyStream?) async throws -> (HTTPResponse, BodyStream)

  static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
  static let credentialFields: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie]
  static let bodyFields: [HTTPField.Name] = [
    .contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation, .transferEncoding,
  ]

  /// Sends `request`, following redirects; `followed` learns each URL the call was sent on to.
  func run(
    _ request: HTTPRequest,
    body: BodyStream?,
    followed: (URL) -> Void
  ) async throws -> (HTTPResponse, BodyStream) {
    var request = request
    var body = body
    var visited: Set<String> = []
    while true {
      let (response, responseBody) = try await send(request, body)
      guard Self.redirectStatuses.contains(response.status.code), policy.maximumRedirects > 0,
        let location = response.headerFields[.location], let current = request.url,
        let target = RedirectLocation.url(location, relativeTo: current),
        let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
      else {
        return (response, responseBody)
      }
      func refusal(_ reason: String) -> CourierError {
        CourierError(
          .redirect, "The \(response.status.code) redirect to \(Self.redacted(target)) was not followed: \(reason)",
          request: request, response: response)
      }
      if visited.isEmpty { visited.insert(Self.key(request.method, current)) }
      guard visited.count <= policy.maximumRedirects else {
        throw refusal("more than \(policy.maximumRedirects) redirects in a row")
      }
      if request.scheme?.lowercased() == "https", scheme == "http" {
        throw refusal("it leaves https for plain http")
      }
      var next = HTTPRequest(method: request.method, url: target, headerFields: request.headerFields)
      if Self.becomesGET(response.status.code, method: request.method) {
        next.method = request.method == .head ? .head : .get
        body = nil
        for name in Self.bodyFields { next.headerFields[name] = nil }
      } else if let body, !body.isRepeatable {
        throw refusal("it asks for the body again and the body can be read only once")
      }
      if Self.origin(of: next) != Self.origin(of: request) {
        for name in Self.credentialFields { next.headerFields[name] = nil }
        for name in policy.removedAcrossOrigins { next.headerFields[name] = nil }
      }
      guard visited.insert(Self.key(next.method, target)).inserted else {
        throw refusal("it leads back to a URL already visited")
      }
      _ = try? await responseBody.collect(upTo: 64 << 10)
      followed(target)
      request = next
    }
  }

  /// Whether a redirect with `status` turns a request with `method` into a GET without a body: 303 always (a HEAD
  /// stays a HEAD), 301 and 302 for anything but GET and HEAD, as browsers and URLSession do.
  static func becomesGET(_ status: Int, method: HTTPRequest.Method) -> Bool {
    switch status {
    case 303: method != .get
    case 301, 302: method != .get && method != .head
    default: false
    }
  }

  /// Scheme, host and port, with the scheme's default port filled in.
  static func origin(of request: HTTPRequest) -> String {
    let scheme = request.scheme?.lowercased() ?? "http"
    guard let url = URL(string: "\(scheme)://\(request.authority ?? "")"), let host = url.host?.lowercased() else {
      return "\(scheme)://\(request.authority?.lowercased() ?? "")"
    }
    return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
  }

  static func key(_ method: HTTPRequest.Method, _ url: URL) -> String {
    "\(method.rawValue) \(url.absoluteString)"
  }

  /// `url` without its query, which may carry a token.
  static func redacted(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "a new URL" }
    if components.query != nil { components.query = "…" }
    components.user = nil
    components.password = nil
    return components.string ?? "a new URL"
  }
}

/// Which hosts a client may send plain `http` to, from ``APIClient/Configuration/cleartextHosts``.
package struct CleartextPolicy: Sendable, Hashable {
  private let allowsEveryHost: Bool
  private let hosts: Set<String>

  /// The policy for `hosts`: `*` allows every host, `*.example.com` the names under `example.com`, anything else
  /// one name or address (compared without case); loopback is always allowed.
  package init(hosts: Set<String>) {
    allowsEveryHost = hosts.contains("*")
    self.hosts = Set(hosts.map { $0.lowercased() })
  }

  /// Whether plain http to `host` is allowed.
  func allows(_ host: String) -> Bool {
    let host = host.lowercased()
    if allowsEveryHost || Self.isLoopback(host) || hosts.contains(host) { return true }
    return hosts.contains { $0.hasPrefix("*.") && host.hasSuffix($0.dropFirst()) }
  }

  /// The error for a plain-http request this policy does not allow, or `nil`.
  func refusal(of request: HTTPRequest) -> CourierError? {
    guard !allowsEveryHost, let scheme = request.scheme, Self.isHTTP(scheme), let authority = request.authority,
      !Self.isLoopbackAuthority(authority), let host = Self.host(of: authority), !allows(host)
    else {
      return nil
    }
    return CourierError(
      .invalidRequest,
      "Plain http to \(host) is refused: the request would cross the network unencrypted. Use https, or allow it "
        + "with `configuration.cleartextHosts = [\"\(host)\"]` (or `[\"*\"]` for every host)",
      request: request)
  }

  /// `http` in any case, without allocating.
  private static func isHTTP(_ scheme: String) -> Bool {
    var bytes = scheme.utf8.makeIterator()
    for expected in "http".utf8 {
      guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
    }
    return bytes.next() == nil
  }

  /// The common loopback authorities (`127.0.0.1`, `localhost`, `[::1]`, with or without a port), recognised without
  /// allocating; anything else goes the long way.
  private static func isLoopbackAuthority(_ authority: String) -> Bool {
    var authority = authority
    return authority.withUTF8 { bytes in
      isAuthority(bytes, of: "127.0.0.1") || isAuthority(bytes, of: "localhost") || isAuthority(bytes, of: "[::1]")
    }
  }

  /// Whether `bytes` are `host`, alone or followed by a port.
  private static func isAuthority(_ bytes: UnsafeBufferPointer<UInt8>, of host: StaticString) -> Bool {
    let count = host.utf8CodeUnitCount
    guard bytes.count == count || (bytes.count > count && bytes[count] == UInt8(ascii: ":")) else { return false }
    return UnsafeBufferPointer(start: host.utf8Start, count: count).elementsEqual(bytes[..<count])
  }

  /// The host of an authority (`user@host:port`, `[::1]:80`), without user info, port or brackets.
  package static func host(of authority: String) -> String? {
    var rest = Substring(authority)
    if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
      return String(rest[rest.index(after: rest.startIndex)..<close])
    }
    if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
    return rest.isEmpty ? nil : String(rest)
  }

  /// Whether `host` names this machine: `localhost` (and names under it), `127.0.0.0/8` and `::1`.
  static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased()
    return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "[::1]"
      || (host.hasPrefix("127.") && host.split(separator: ".").count == 4
        && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
  }
}

/// The moment a request went out on a connection: fired by the transport through
/// ``TransportOptions/requestSent`` (AsyncHTTPClient when the request head has been written, URLSession as the body
/// goes out), or by Courier when the response head arrives. Runs the call's start work once, and only when it fired:
/// a call whose connection is refused, never accepted, whose host is unknown or whose device is offline fails
/// without starting.
final class SentSignal: Sendable {
  private let events: AsyncStream<Bool>
  private let continuation: AsyncStream<Bool>.Continuation

  init() {
    (events, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingOldest(1))
  }

  /// The request went out (repeated calls are ignored).
  func fire() {
    continuation.yield(true)
    continuation.finish()
  }

  /// Runs `send`, and `then` as soon as the request went out (at the latest when `send` returns); `send` returns
  /// only after `then` finished. When `send` fails before the signal fired, `then` never runs.
  func whenFired<Result: Sendable>(
    send: @Sendable () async throws -> Result,
    then: @escaping @Sendable () async -> Void
  ) async throws -> Result {
    let events = self.events
    async let started: Void = {
      var iterator = events.makeAsyncIterator()
      if await iterator.next() == true { await then() }
    }()
    do {
      let result = try await send()
      fire()
      await started
      return result
    } catch {
      continuation.finish()
      await started
      throw error
    }
  }
}
