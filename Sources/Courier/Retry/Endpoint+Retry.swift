/// Whether ``RetryInterceptor`` may repeat a call.
enum RetryableKey: AttributeKey {
  static let defaultValue = true
}

extension Endpoint {
  /// Allows or forbids retrying this endpoint.
  public func retries(_ enabled: Bool) -> Endpoint {
    attribute(RetryableKey.self, enabled)
  }
}
