import Foundation
import HTTPTypes

/// What interceptors know about a call besides the request itself: the endpoint's opt-outs, the timeout, the
/// attempt number and where to report events.
public struct RequestContext: Sendable {
  /// The endpoint's per-call options.
  public var options: RequestOptions
  /// The options handed to the transport.
  public var transportOptions: TransportOptions
  /// The attempt number, from 1; the retry interceptor increases it.
  public var attempt: Int
  /// Identifies the call in events and logs.
  public let callID: UInt64
  /// Receives the call's events.
  public var events: EventSink
  /// The endpoint's sample response, if it declares one; `SampleInterceptor` in CourierTesting answers with it.
  public var sample: SampleResponse?

  /// Creates a context; the client makes one per call.
  public init(
    options: RequestOptions = RequestOptions(),
    transportOptions: TransportOptions = TransportOptions(),
    attempt: Int = 1,
    callID: UInt64 = 0,
    events: EventSink = EventSink(),
    sample: SampleResponse? = nil
  ) {
    self.options = options
    self.transportOptions = transportOptions
    self.attempt = attempt
    self.callID = callID
    self.events = events
    self.sample = sample
  }
}

/// Per-endpoint switches read by the interceptors.
public struct RequestOptions: Sendable, Hashable {
  /// Whether the auth interceptor attaches credentials and refreshes on 401 (`false` for login and refresh calls).
  public var requiresAuthentication = true
  /// Whether this call is the token refresh itself; it never triggers another refresh.
  public var isTokenRefresh = false
  /// Whether the logging interceptor may log this call's bodies (`false` for bodies holding secrets).
  public var logsBodies = true
  /// Whether the call is logged at all.
  public var isLogged = true
  /// Whether the retry interceptor may repeat this call.
  public var isRetryable = true
  /// Whether identical in-flight GETs may share this call's transfer.
  public var deduplicates = false
  /// How this call uses the cache; `nil` uses the ``CacheInterceptor``'s policy.
  public var cachePolicy: CachePolicy?
  /// Whether the caller reads the body as a stream (``APIClient/stream(_:)``); the cache stays out of the way.
  var isStream = false

  /// Default options: authenticated, logged, retryable, not deduplicated.
  public init() {}
}
