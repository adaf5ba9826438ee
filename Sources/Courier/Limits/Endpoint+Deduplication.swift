/// Whether identical in-flight GETs of a call may share one transfer.
enum DeduplicationKey: AttributeKey {
  static let defaultValue = false
}

extension Endpoint {
  /// Lets identical in-flight GETs of this endpoint share one transfer (with ``DeduplicationInterceptor``).
  public func deduplicated(_ enabled: Bool = true) -> Endpoint {
    attribute(DeduplicationKey.self, enabled)
  }
}
