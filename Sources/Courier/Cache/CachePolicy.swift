/// How a call uses the cache, set per client on ``CacheInterceptor`` and per endpoint with
/// ``Endpoint/cachePolicy(_:)``.
public enum CachePolicy: Sendable, Hashable {
  /// Follow HTTP's rules (RFC 9111): serve fresh responses, revalidate stale ones, honour every directive. When the
  /// origin cannot be reached (the connection is refused or closed before an answer), a stale response is served,
  /// marked ``CacheStatus/stale``, unless it says `must-revalidate` or `no-cache` (RFC 9111 §4.2.4).
  case useProtocolRules
  /// Always load from the network, and store the result.
  case reloadIgnoringCache
  /// Serve any stored response, fresh or stale, without asking the network; load only when nothing is stored.
  case returnCacheElseLoad
  /// Serve a stored response or fail with ``CourierError/Kind-swift.struct/notCached``; never use the network.
  case returnCacheOnly
  /// Follow HTTP's rules, and when the network fails serve a stale response anyway (unless it says
  /// `must-revalidate` or `no-cache`), marked ``CacheStatus/stale``.
  case offlineFallback
}

/// Where a response came from.
public enum CacheStatus: String, Sendable, Hashable {
  /// From the network; the cache had nothing usable.
  case miss
  /// From the cache, fresh, without contacting the network.
  case hit
  /// From the cache after the server confirmed it with `304 Not Modified`.
  case revalidated
  /// From the cache although stale: allowed by `max-stale`, `stale-while-revalidate`, `stale-if-error`, the
  /// offline fallback, or an origin that cannot be reached.
  case stale
}
