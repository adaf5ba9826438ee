/// The cache policy of one call, over the ``CacheInterceptor``'s.
enum CachePolicyKey: AttributeKey {
  static let defaultValue: CachePolicy? = nil
}

extension Endpoint {
  /// Sets how this endpoint uses the cache, overriding the ``CacheInterceptor``'s policy.
  ///
  /// ```swift
  /// let feed = Endpoint<Feed>.get("/feed").cachePolicy(.offlineFallback)
  /// ```
  public func cachePolicy(_ policy: CachePolicy) -> Endpoint {
    attribute(CachePolicyKey.self, policy)
  }
}
