import Foundation
import HTTPTypes

/// GETs with a `Range` field (RFC 9111 §3.3, §3.4; RFC 9110 §14).
///
/// - One byte range is answered from a stored complete 200, or from stored parts that hold it, as a 206 with its
///   `Content-Range`, when the stored response may be served without contacting the origin.
/// - Otherwise the request goes to the origin. A 206 that answers it is stored as a part when it has one
///   `Content-Range` and a body no longer than that range (a shorter body holds the range's first bytes, and only
///   they are stored). Parts with the same strong `ETag` are combined, and once they cover
///   the whole representation they become a complete 200; a part without a strong validator is stored alone,
///   replacing the parts held, and serves the ranges inside it. A 206 with the validator of a stored complete response
///   refreshes its head. A 200 is stored as usual.
/// - Several ranges, another unit, `If-Range`, conditional requests and encoded bodies are forwarded, and what
///   answers them is passed on without being stored as a part. A stored part is never served as a complete response.
extension CacheCall {
  func runRange(policy: CachePolicy) async throws -> (HTTPResponse, BodyStream) {
    let requestControl = Self.requestControl(request)
    let fields = request.headerFields
    let conditional = fields[.ifNoneMatch] != nil || fields[.ifModifiedSince] != nil || fields[.ifRange] != nil
    guard let wanted = ByteRangeRequest(fields[values: .range]), !conditional else {
      return try await next(request, body, context)
    }
    if policy != .reloadIgnoringCache, !requestControl.noStore {
      let anyAge = policy == .returnCacheOnly || policy == .returnCacheElseLoad
      if let served = await servePart(wanted, requestControl: requestControl, anyAge: anyAge) { return served }
    }
    if policy == .returnCacheOnly {
      throw CourierError(
        .notCached, "Nothing cached holds \(fields[.range] ?? "") of \(CacheInterceptor.key(for: request))",
        request: request)
    }
    if requestControl.onlyIfCached { return gatewayTimeout() }
    let sent = now
    let (response, responseBody) = try await next(request, body, context)
    switch response.status.code {
    case 206 where !requestControl.noStore:
      return try await keepPart(response, responseBody, requestTime: sent)
    case 200:
      return try await keep(response, responseBody, requestTime: sent, storing: !requestControl.noStore)
    default:
      return (CacheStatus.miss.marking(response), responseBody)
    }
  }

  /// The wanted bytes from a stored complete 200 or stored parts, when one may be served now.
  private func servePart(
    _ wanted: ByteRangeRequest,
    requestControl: CacheControl,
    anyAge: Bool
  ) async -> (HTTPResponse, BodyStream)? {
    func usable(_ entry: CachedResponse) -> Freshness? {
      let control = CacheControl(entry.response.headerFields)
      let freshness = Freshness(entry, control: control, now: now)
      if anyAge { return freshness }
      return Self.isAcceptable(freshness, responseControl: control, requestControl: requestControl) ? freshness : nil
    }
    if let entry = await storedEntry(), entry.response.status.code == 200, Self.holdsRepresentation(entry),
      let range = wanted.resolved(length: entry.body.count), let freshness = usable(entry)
    {
      return servePart(
        entry, bytes: entry.body.subdata(in: range),
        range: range, completeLength: entry.body.count,
        freshness: freshness)
    }
    if let entry = await storedEntry(keys: [CacheInterceptor.partialKey(for: request)]),
      let parts = StoredParts(field: entry.response.headerFields[StoredParts.fieldName], body: entry.body),
      let range = wanted.resolved(length: parts.completeLength), let bytes = parts.bytes(range),
      let freshness = usable(entry)
    {
      return servePart(
        entry, bytes: bytes, range: range, completeLength: parts.completeLength,
        freshness: freshness)
    }
    return nil
  }

  private func servePart(
    _ entry: CachedResponse,
    bytes: Data,
    range: Range<Int>,
    completeLength: Int,
    freshness: Freshness
  ) -> (HTTPResponse, BodyStream) {
    var (response, _) = serve(entry, status: freshness.isFresh ? .hit : .stale, age: freshness.age)
    response.status = .partialContent
    response.headerFields[StoredParts.fieldName] = nil
    response.headerFields[.contentRange] = ContentRange.field(range, completeLength: completeLength)
    response.headerFields[.contentLength] = String(bytes.count)
    return (response, BodyStream(bytes))
  }

  /// Stores a 206 as a part, combining it with the parts already held, and hands it on marked as a miss.
  private func keepPart(
    _ response: HTTPResponse,
    _ responseBody: BodyStream,
    requestTime: Date
  ) async throws -> (HTTPResponse, BodyStream) {
    let marked = CacheStatus.miss.marking(response)
    guard let contentRange = ContentRange.part(response.headerFields[values: .contentRange]),
      contentRange.completeLength <= cache.maxEntrySize, Self.isIdentityEncoded(response),
      let variant = Self.storableVariant(request: request, response: response, partial: true)
    else { return (marked, responseBody) }
    if let length = responseBody.length, length > contentRange.bytes.count { return (marked, responseBody) }
    let data = try await responseBody.collect()
    // A body longer than its range is not stored: which of its bytes are the range's is unknown. A shorter one is an
    // incomplete response (§3.3): its bytes are the range's first ones, and only they are stored.
    guard !data.isEmpty, data.count <= contentRange.bytes.count else { return (marked, BodyStream(data)) }
    let received = contentRange.bytes.lowerBound..<(contentRange.bytes.lowerBound + data.count)
    var head = response
    head.headerFields = Self.withoutHopByHop(response.headerFields)
    head.headerFields[.contentRange] = nil
    head.headerFields[.contentLength] = nil
    let responseTime = now
    // Without a strong validator the part is stored alone, replacing any other: it is never combined (§3.4).
    let validator = Self.strongValidator(response)
    if let validator, var complete = await storedEntry(), complete.response.status.code == 200,
      Self.strongValidator(complete.response) == validator, complete.body.count == contentRange.completeLength,
      Self.holdsRepresentation(complete)
    {
      // RFC 9111 §3.4: a part with the validator of a stored complete response refreshes that response's head.
      complete.response.headerFields = Self.merge(complete.response.headerFields, with: head.headerFields)
      complete.requestTime = requestTime
      complete.responseTime = responseTime
      try? await store.store(complete)
      return (marked, BodyStream(data))
    }
    let partialKey = CacheInterceptor.partialKey(for: request)
    var parts = StoredParts(completeLength: contentRange.completeLength, ranges: [], data: Data())
    if let validator, let stored = await storedEntry(keys: [partialKey]),
      Self.strongValidator(stored.response) == validator,
      let held = StoredParts(field: stored.response.headerFields[StoredParts.fieldName], body: stored.body),
      held.completeLength == contentRange.completeLength
    {
      parts = held
    }
    parts = parts.adding(data, at: received)
    if parts.isComplete {
      head.status = .ok
      head.headerFields[.contentLength] = String(parts.completeLength)
      try? await store.store(
        CachedResponse(
          key: CacheInterceptor.key(for: request), variant: variant, response: head, body: parts.data,
          requestTime: requestTime, responseTime: responseTime))
      try? await store.removeEntries(for: partialKey)
    } else {
      head.headerFields[StoredParts.fieldName] = parts.field
      try? await store.store(
        CachedResponse(
          key: partialKey, variant: variant, response: head, body: parts.data, requestTime: requestTime,
          responseTime: responseTime))
    }
    return (marked, BodyStream(data))
  }

  /// The response's `ETag` when it is strong (RFC 9110 §8.8.3): only parts with the same strong validator may be
  /// combined (RFC 9111 §3.4).
  static func strongValidator(_ response: HTTPResponse) -> String? {
    guard let etag = response.headerFields[.eTag]?.trimmingCharacters(in: .whitespaces), etag.hasPrefix("\"") else {
      return nil
    }
    return etag
  }

  /// Whether the body is the representation's bytes, so that byte ranges address it: no content coding, which a
  /// transport may have undone.
  static func isIdentityEncoded(_ response: HTTPResponse) -> Bool {
    response.headerFields[values: .contentEncoding].allSatisfy {
      $0.trimmingCharacters(in: .whitespaces).lowercased() == "identity"
    }
  }

  /// Whether a stored response's body is its whole representation: identity-coded, and as long as its
  /// `Content-Length` says.
  static func holdsRepresentation(_ entry: CachedResponse) -> Bool {
    guard isIdentityEncoded(entry.response) else { return false }
    guard let length = entry.response.headerFields[.contentLength] else { return true }
    return Int(length) == entry.body.count
  }
}
