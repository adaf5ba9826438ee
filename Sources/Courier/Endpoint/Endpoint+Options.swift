import Foundation
import HTTPTypes

extension Endpoint {
  /// Sends this endpoint without credentials (login, signup, public data).
  public func withoutAuthentication() -> Endpoint {
    with { $0.options.requiresAuthentication = false }
  }

  /// Marks this endpoint as the token refresh call: it is sent without the stored credentials and a 401 to it
  /// never triggers another refresh.
  public func asTokenRefresh() -> Endpoint {
    with { endpoint in
      endpoint.options.isTokenRefresh = true
      endpoint.options.requiresAuthentication = false
    }
  }

  /// Allows or forbids retrying this endpoint.
  public func retries(_ enabled: Bool) -> Endpoint {
    with { $0.options.isRetryable = enabled }
  }

  /// Lets identical in-flight GETs of this endpoint share one transfer (with ``DeduplicationInterceptor``).
  public func deduplicated(_ enabled: Bool = true) -> Endpoint {
    with { $0.options.deduplicates = enabled }
  }

  /// Sets an `Idempotency-Key`, which makes a POST or PATCH safe to retry.
  public func idempotencyKey(_ key: String = UUID().uuidString) -> Endpoint {
    header(HTTPHeader("Idempotency-Key", key))
  }

  /// Makes the call take at least `seconds`, so a loading indicator does not flicker; cancellation stays immediate.
  public func minimumDuration(_ seconds: TimeInterval) -> Endpoint {
    with { $0.minimumDuration = seconds }
  }
}
