import Foundation
import HTTPTypes

/// One GET or HEAD going through ``CacheInterceptor``.
struct CacheCall: Sendable {
  let cache: CacheInterceptor
  let request: HTTPRequest
  let body: BodyStream?
  let context: CallContext
  let next: InterceptorNext

  var store: any CacheStore { cache.store }
  var now: Date { cache.clock.now }

  func run(policy: CachePolicy) async throws -> (HTTPResponse, BodyStream) {
    let requestControl = Self.requestControl(request)
    let conditional = request.headerFields[.ifNoneMatch] != nil || request.headerFields[.ifModifiedSince] != nil
    if policy == .reloadIgnoringCache || conditional || requestControl.noStore {
      return try await load(storing: !requestControl.noStore && !conditional)
    }
    let entry = await storedEntry()
    switch policy {
    case .returnCacheOnly:
      guard let entry else {
        throw CourierError(.notCached, "Nothing is cached for \(CacheInterceptor.key(for: request))", request: request)
      }
      let freshness = Freshness(entry, now: now)
      return serve(entry, status: freshness.isFresh ? .hit : .stale, age: freshness.age)
    case .returnCacheElseLoad:
      guard let entry else { return try await load(storing: true) }
      let freshness = Freshness(entry, now: now)
      return serve(entry, status: freshness.isFresh ? .hit : .stale, age: freshness.age)
    case .useProtocolRules, .offlineFallback, .reloadIgnoringCache:
      guard let entry else {
        if requestControl.onlyIfCached { return gatewayTimeout() }
        return try await load(storing: true)
      }
      return try await reuse(entry, requestControl: requestControl, offlineFallback: policy == .offlineFallback)
    }
  }

  /// RFC 9111 §4: serve fresh, serve stale where allowed, else revalidate.
  private func reuse(
    _ entry: CachedResponse,
    requestControl: CacheControl,
    offlineFallback: Bool
  ) async throws -> (HTTPResponse, BodyStream) {
    let responseControl = CacheControl(entry.response.headerFields)
    let freshness = Freshness(entry, control: responseControl, now: now)
    let mayServeStale = !responseControl.mustRevalidate && !responseControl.noCache
    if Self.isAcceptable(freshness, responseControl: responseControl, requestControl: requestControl) {
      return serve(entry, status: .hit, age: freshness.age)
    }

    if !freshness.isFresh, mayServeStale, !requestControl.noCache {
      if let maxStale = requestControl.maxStale, freshness.staleness <= maxStale {
        return serve(entry, status: .stale)
      }
      if let window = responseControl.staleWhileRevalidate, freshness.staleness <= window {
        refreshInBackground(entry)
        return serve(entry, status: .stale)
      }
    }
    if requestControl.onlyIfCached { return gatewayTimeout() }
    let errorWindow = responseControl.staleIfError ?? requestControl.staleIfError
    let fallback: CachedResponse? =
      mayServeStale && (offlineFallback || errorWindow.map { freshness.staleness <= $0 } == true) ? entry : nil
    return try await revalidate(entry, fallback: fallback, whenUnreachable: mayServeStale ? entry : nil)
  }

  /// RFC 9111 §4.2 and §5.2.1: whether a response this fresh may be served without contacting the origin, given
  /// its own directives and the request's `no-cache`, `max-age` and `min-fresh`.
  static func isAcceptable(_ freshness: Freshness, responseControl: CacheControl, requestControl: CacheControl) -> Bool
  {
    guard freshness.isFresh, !requestControl.noCache, !responseControl.noCache else { return false }
    if !responseControl.immutable, let maxAge = requestControl.maxAge, freshness.age > maxAge { return false }
    if let minFresh = requestControl.minFresh, freshness.remaining < minFresh { return false }
    return true
  }

  /// Starts one background revalidation per key; stale hits while it runs start none.
  private func refreshInBackground(_ entry: CachedResponse) {
    let key = CacheInterceptor.key(for: request)
    guard cache.refreshing.withLock({ $0.insert(key).inserted }) else { return }
    var detached = context
    detached.events = EventSink()
    detached.transportStart = nil
    detached.progress = nil
    let background = CacheCall(cache: cache, request: request, body: body, context: detached, next: next)
    Task {
      _ = try? await background.revalidate(entry, fallback: nil)
      cache.refreshing.withLock { _ = $0.remove(key) }
    }
  }

  /// Sends a conditional request; a 304 refreshes the stored head and serves the stored body.
  ///
  /// `fallback` is served stale when the origin fails (an error, a 500, 502, 503 or 504, a body cut short);
  /// `whenUnreachable` only when the origin cannot be reached: the connection is refused or closed before a response
  /// (RFC 9111 §4.2.4 lets a disconnected cache serve stale unless the response forbids it).
  private func revalidate(
    _ entry: CachedResponse,
    fallback: CachedResponse?,
    whenUnreachable: CachedResponse? = nil
  ) async throws -> (HTTPResponse, BodyStream) {
    var conditional = request
    // The validators go back byte for byte as the server sent them, obs-text included.
    for (stored, sent) in [(HTTPField.Name.eTag, HTTPField.Name.ifNoneMatch), (.lastModified, .ifModifiedSince)] {
      guard var validator = entry.response.headerFields.first(where: { $0.name == stored }) else { continue }
      validator.name = sent
      conditional.headerFields[sent] = nil
      conditional.headerFields.append(validator)
    }
    let sent = now
    let response: HTTPResponse
    let responseBody: BodyStream
    do {
      (response, responseBody) = try await next(conditional, body, context)
    } catch {
      let failure = CourierError(transportFailure: error, request: request)
      if let fallback, !failure.isCancellation, !Task.isCancelled { return serve(fallback, status: .stale) }
      if let whenUnreachable, failure.kind == .noConnection || failure.kind == .connectionLost, !Task.isCancelled {
        return serve(whenUnreachable, status: .stale)
      }
      throw failure
    }
    if response.status.code == 304 {
      var updated = entry
      updated.response.headerFields = Self.merge(entry.response.headerFields, with: response.headerFields)
      updated.requestTime = sent
      updated.responseTime = now
      try? await store.store(updated)
      return serve(updated, status: .revalidated)
    }
    if let fallback, [500, 502, 503, 504].contains(response.status.code) {
      return serve(fallback, status: .stale)
    }
    guard let fallback else { return try await keep(response, responseBody, requestTime: sent, storing: true) }
    do {
      // With a stale fallback, the new body is read here, so that a connection dropped in its middle still serves
      // the stored response (RFC 5861 §4: an error is also a broken connection).
      let (fresh, freshBody) = try await keep(response, responseBody, requestTime: sent, storing: true)
      return (fresh, BodyStream(try await freshBody.collect()))
    } catch {
      let failure = CourierError(transportFailure: error, request: request)
      if failure.isCancellation || Task.isCancelled { throw failure }
      return serve(fallback, status: .stale)
    }
  }

  private func load(storing: Bool) async throws -> (HTTPResponse, BodyStream) {
    let sent = now
    let (response, responseBody) = try await next(request, body, context)
    return try await keep(response, responseBody, requestTime: sent, storing: storing)
  }

  /// Stores the response when RFC 9111 §3 allows it, and hands it on marked as a miss.
  func keep(
    _ response: HTTPResponse,
    _ responseBody: BodyStream,
    requestTime: Date,
    storing: Bool
  ) async throws -> (HTTPResponse, BodyStream) {
    let marked = CacheStatus.miss.marking(response)
    guard storing, let variant = Self.storableVariant(request: request, response: response) else {
      return (marked, responseBody)
    }
    if let length = responseBody.length, length > cache.maxEntrySize { return (marked, responseBody) }
    let data = try await responseBody.collect()
    if data.count <= cache.maxEntrySize {
      var stored = response
      stored.headerFields = Self.withoutHopByHop(response.headerFields)
      let entry = CachedResponse(
        key: CacheInterceptor.key(for: request), variant: variant, response: stored, body: data,
        requestTime: requestTime, responseTime: now)
      try? await store.store(entry)
    }
    return (marked, BodyStream(data))
  }

  /// The stored response that matches the request's `Vary` fields, under its key (or, for HEAD, GET's) or `keys`.
  func storedEntry(keys: [String]? = nil) async -> CachedResponse? {
    var keys = keys ?? [CacheInterceptor.key(for: request)]
    if request.method == .head { keys.append(CacheInterceptor.key(for: request, method: .get)) }
    for key in keys {
      let entries = (try? await store.entries(for: key)) ?? []
      if let match = entries.first(where: { Self.matches($0, request) }) { return match }
    }
    return nil
  }

  /// Hands on `entry` with an `Age` field; `age` when the caller has just computed it.
  func serve(_ entry: CachedResponse, status: CacheStatus, age: TimeInterval? = nil) -> (HTTPResponse, BodyStream) {
    var response = status.marking(entry.response)
    let seconds = age ?? Freshness(entry, now: now).age
    let capped = seconds.isNaN ? 0 : min(max(seconds, 0), 2_147_483_648)  // RFC 9111 §1.2.2's cap
    response.headerFields[.age] = String(Int(capped))
    return (response, request.method == .head ? BodyStream() : BodyStream(entry.body))
  }

  func gatewayTimeout() -> (HTTPResponse, BodyStream) {
    (CacheStatus.miss.marking(HTTPResponse(status: .gatewayTimeout)), BodyStream())
  }
}

extension CacheCall {
  /// The request's directives; `Pragma: no-cache` counts as `no-cache` when there is no `Cache-Control`.
  static func requestControl(_ request: HTTPRequest) -> CacheControl {
    var control = CacheControl(request.headerFields)
    if request.headerFields[.cacheControl] == nil,
      request.headerFields[values: HTTPField.Name("Pragma")!].contains(where: { $0.lowercased().contains("no-cache") })
    {
      control.noCache = true
    }
    return control
  }

  /// The `Vary` variant to store the response under, or `nil` when RFC 9111 §3 forbids storing it (or storing it
  /// would be useless: no freshness, no validators).
  /// A 206 is stored only as a part (`partial`), never as a complete response.
  static func storableVariant(request: HTTPRequest, response: HTTPResponse, partial: Bool = false) -> [String: String]?
  {
    let code = response.status.code
    guard code >= 200, code != 304, (code == 206) == partial else { return nil }
    let responseControl = CacheControl(response.headerFields)
    if responseControl.mustUnderstand {
      // RFC 9111 §5.2.2.3: only a cache that implements the status's caching rules stores it, despite `no-store`.
      guard understoodStatuses.contains(code) else { return nil }
    } else if responseControl.noStore {
      return nil
    }
    guard !requestControl(request).noStore else { return nil }
    let lifetime = Freshness.lifetime(of: response, receivedAt: Date())
    let explicit = responseControl.maxAge != nil || response.headerFields[.expires] != nil
    let validators = response.headerFields[.eTag] != nil || response.headerFields[.lastModified] != nil
    guard explicit || Freshness.heuristicallyCacheable.contains(code) || responseControl.isPublic else { return nil }
    guard lifetime > 0 || validators || responseControl.staleWhileRevalidate != nil else { return nil }
    var variant: [String: String] = [:]
    for name in varyNames(response) {
      if name == "*" { return nil }
      guard let fieldName = HTTPField.Name(name) else { return nil }
      if let value = varyValue(of: fieldName, in: request) { variant[name] = value }
    }
    return variant
  }

  /// The final statuses whose caching rules Courier implements (for `must-understand`): those RFC 9110 defines,
  /// except 304, which updates a stored response.
  static let understoodStatuses: Set<Int> = Set(200...206).union(300...303).union([305, 307, 308])
    .union(400...417).union([421, 422, 426]).union(500...505)

  static func varyNames(_ response: HTTPResponse) -> [String] {
    response.headerFields[values: .vary].flatMap { $0.split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
  }

  /// The fields whose values are case-insensitive (RFC 9110 §12.5), so that `GZIP` and `gzip` select one variant.
  static let caseInsensitiveVaryFields: Set<HTTPField.Name> = [
    .acceptEncoding, .acceptLanguage, .accept, HTTPField.Name("Accept-Charset")!,
  ]

  /// `request`'s value of `name` as a variant key, normalised as RFC 9111 §4.1 allows: every field line combined,
  /// list members trimmed of whitespace and empty ones dropped, case folded for case-insensitive fields; `nil` when
  /// the request has no such field.
  static func varyValue(of name: HTTPField.Name, in request: HTTPRequest) -> String? {
    let lines = request.headerFields[values: name]
    guard !lines.isEmpty else { return nil }
    var members: [String] = []
    for line in lines {
      for member in line.split(separator: ",") {
        let trimmed = member.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
          .joined(separator: ";")
        if !trimmed.isEmpty { members.append(trimmed) }
      }
    }
    let value = members.joined(separator: ", ")
    if name == .acceptLanguage, let languages = LanguagePreferences(value) { return languages.normalized }
    return caseInsensitiveVaryFields.contains(name) ? value.lowercased() : value
  }

  /// Whether `entry` was stored for a request with the same values of the headers its response varies on.
  ///
  /// `Accept-Language` also matches when the stored response's `Content-Language` is what the request prefers most:
  /// the origin would choose the same language for it (RFC 9111 §4.1 allows matching by the field's semantics).
  static func matches(_ entry: CachedResponse, _ request: HTTPRequest) -> Bool {
    for name in varyNames(entry.response) {
      guard name != "*", let fieldName = HTTPField.Name(name) else { return false }
      let value = varyValue(of: fieldName, in: request)
      if value == entry.variant[name] { continue }
      if fieldName == .acceptLanguage, let value, let preferences = LanguagePreferences(value),
        preferences.prefersMost(entry.response.headerFields[values: .contentLanguage])
      {
        continue
      }
      return false
    }
    return true
  }

  /// RFC 9111 §3.2: the stored head takes the 304's fields, except the framing ones and the hop-by-hop ones.
  static func merge(_ stored: HTTPFields, with update: HTTPFields) -> HTTPFields {
    var merged = stored
    let skipped: Set<HTTPField.Name> = [.contentLength, .transferEncoding, .contentEncoding, .contentRange]
    let update = withoutHopByHop(update)
    for name in Set(update.map(\.name)) where !skipped.contains(name) {
      merged[values: name] = update[values: name]
    }
    return merged
  }

  /// The hop-by-hop fields a cache neither stores nor replays (RFC 9111 §3.1, RFC 9110 §7.6.1).
  static let hopByHop: Set<HTTPField.Name> = [
    .connection, HTTPField.Name("Keep-Alive")!, HTTPField.Name("Proxy-Connection")!, .te, .transferEncoding,
    .upgrade,
  ]

  /// `fields` without `Connection`, the fields it names, and the other hop-by-hop fields.
  static func withoutHopByHop(_ fields: HTTPFields) -> HTTPFields {
    var named = hopByHop
    for value in fields[values: .connection] {
      for token in value.split(separator: ",") {
        if let name = HTTPField.Name(token.trimmingCharacters(in: .whitespaces)) { named.insert(name) }
      }
    }
    guard fields.contains(where: { named.contains($0.name) }) else { return fields }
    return HTTPFields(fields.filter { !named.contains($0.name) })
  }
}
