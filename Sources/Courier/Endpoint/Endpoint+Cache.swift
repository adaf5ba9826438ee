extension Endpoint {
  /// Sets how this endpoint uses the cache, overriding the ``CacheInterceptor``'s policy.
  ///
  /// ```swift
  /// let feed = Endpoint<Feed>.get("/feed").cachePolicy(.offlineFallback)
  /// ```
  public func cachePolicy(_ policy: CachePolicy) -> Endpoint {
    with { $0.options.cachePolicy = policy }
  }
}
