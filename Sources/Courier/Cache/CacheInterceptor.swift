import Foundation
import HTTPTypes

/// A private HTTP cache (RFC 9111) as an interceptor: it answers from its store when a response is fresh,
/// revalidates stale ones with `If-None-Match` / `If-Modified-Since`, honours `Vary` and the request and response
/// `Cache-Control` directives, and invalidates what a successful POST, PUT, PATCH or DELETE changes.
///
/// Courier owns caching on every platform and transport (FoundationNetworking's `URLCache` never stores a
/// session's responses on Linux). Put it after auth and retry and before limits and logging, so a hit costs no
/// network slot and is not logged as a request:
///
/// ```swift
/// let client = APIClient(baseURL: url) {
///   $0.interceptors = [
///     auth, RetryInterceptor(), CacheInterceptor(store: InMemoryCacheStore()), LoggingInterceptor(logger: log),
///   ]
/// }
/// let response = try await client.send(Endpoint<Feed>.get("/feed"))
/// print(response.cacheStatus)   // .miss, then .hit while fresh, .revalidated after a 304
/// ```
///
/// Responses are stored whole in memory before being stored; bodies larger than `maxEntrySize` pass through.
/// Call ``CacheStore/removeAll()`` when the user signs out: a private cache keeps responses to authorized requests.
public struct CacheInterceptor: Interceptor {
  /// Where responses are kept.
  public let store: any CacheStore
  /// The policy for calls whose endpoint sets none.
  public let policy: CachePolicy
  /// The largest body stored (8 MiB by default).
  public let maxEntrySize: Int
  let clock: any CallClock
  /// Keys with a stale-while-revalidate refresh under way, so a burst of stale hits sends one request.
  let refreshing = Locked<Set<String>>([])

  /// Creates a cache over `store`.
  ///
  /// - Parameters:
  ///   - store: Where responses are kept.
  ///   - policy: The default policy; endpoints override it with ``Endpoint/cachePolicy(_:)``.
  ///   - maxEntrySize: The largest body stored.
  ///   - clock: The time source for ages; `nil` for the system clock, a test clock in tests.
  public init(
    store: any CacheStore,
    policy: CachePolicy = .useProtocolRules,
    maxEntrySize: Int = 8 * 1024 * 1024,
    clock: (any CallClock)? = nil
  ) {
    self.store = store
    self.policy = policy
    self.maxEntrySize = maxEntrySize
    self.clock = clock ?? SystemCallClock()
  }

  /// Answers from the cache, revalidates, or loads and stores.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    if context.deliversBodyIncrementally { return try await next(request, body, context) }
    if request.headerFields[.range] != nil {
      // Range applies to GET only (RFC 9110 §14.2); a HEAD with one goes on as it is.
      guard request.method == .get else { return try await next(request, body, context) }
      let call = CacheCall(cache: self, request: request, body: body, context: context, next: next)
      return try await call.runRange(policy: context[CachePolicyKey.self] ?? policy)
    }
    guard request.method == .get || request.method == .head else {
      let result = try await next(request, body, context)
      // A write handed to an upload the system carries on was not made yet: its own answer invalidates, when it comes
      // (``APIClient/invalidateCaches(after:response:)``).
      if ![.options, .trace].contains(request.method), result.0.headerFields[Self.handedOff] == nil {
        await invalidate(after: request, response: result.0)
      }
      return result
    }
    let call = CacheCall(cache: self, request: request, body: body, context: context, next: next)
    return try await call.run(policy: context[CachePolicyKey.self] ?? policy)
  }

  /// The key of `request`: `scheme://authority/path?query`, prefixed with the method when it is not GET.
  static func key(for request: HTTPRequest, method: HTTPRequest.Method? = nil) -> String {
    let url = "\(request.scheme ?? "http")://\(request.authority ?? "")\(request.path ?? "/")"
    let method = method ?? request.method
    return method == .get ? url : "\(method.rawValue) \(url)"
  }

  /// Where the parts of `request`'s target are stored (206 responses not yet combined into a whole one). The colon
  /// cannot appear in a method, so the key never meets the key of another request.
  static func partialKey(for request: HTTPRequest) -> String {
    "partial: " + key(for: request, method: .get)
  }

  /// The field on the stand-in answer of a write handed to a background upload: no answer of the server yet.
  package static let handedOff = HTTPField.Name("Courier-Outbox-Handoff")!

  /// RFC 9111 §4.4: a non-error response to an unsafe method invalidates the target URI and the same-origin URIs in
  /// `Location` and `Content-Location`.
  func invalidate(after request: HTTPRequest, response: HTTPResponse) async {
    guard (200..<400).contains(response.status.code) else { return }
    var targets = [Self.key(for: request, method: .get)]
    let origin = "\(request.scheme ?? "http")://\(request.authority ?? "")"
    for name in [HTTPField.Name.location, .contentLocation] {
      guard let value = response.headerFields[name],
        let resolved = Self.resolve(value, origin: origin, path: request.path)
      else { continue }
      if resolved.hasPrefix(origin + "/") || resolved == origin { targets.append(resolved) }
    }
    for target in targets {
      try? await store.removeEntries(for: target)
      try? await store.removeEntries(for: "HEAD \(target)")
      try? await store.removeEntries(for: "partial: \(target)")
    }
  }

  static func resolve(_ reference: String, origin: String, path: String?) -> String? {
    guard let base = URL(string: origin + (path ?? "/")), let url = URL(string: reference, relativeTo: base) else {
      return nil
    }
    return url.absoluteURL.absoluteString
  }
}

extension APIClient {
  /// Invalidates what the client's caches hold for `request`'s target, as `response` to it does (RFC 9111 §4.4): for
  /// an answer that came outside a call, such as a background upload's.
  package func invalidateCaches(after request: HTTPRequest, response: HTTPResponse) async {
    for case let cache as CacheInterceptor in configuration.interceptors {
      await cache.invalidate(after: request, response: response)
    }
  }
}
