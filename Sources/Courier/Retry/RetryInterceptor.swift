import Foundation
import HTTPTypes

/// Repeats requests that failed for reasons that may pass: timeouts, lost or refused connections, and the
/// ``retryableStatuses`` (408, 429, 500, 502, 503 and 504 by default).
///
/// It retries only what is safe to send twice: idempotent methods, or requests with an `Idempotency-Key`, and only
/// bodies that can be replayed. Cancellation is never retried, and cancelling the task — or the call's deadline
/// passing — ends a wait at once.
///
/// The delay before retry *n* is a random value between 0 and `min(maxDelay, baseDelay × multiplier^(n-1))`
/// ("full jitter"), unless the server sent `Retry-After` with a 429 or 503, which is honoured up to
/// ``maxRetryAfter``; a longer `Retry-After` ends the retries and the response is returned.
///
/// ```swift
/// var retry = RetryInterceptor(maxAttempts: 4)  // 0.5 s base, ×2, capped at 30 s, full jitter
/// retry.retryableStatuses.remove(.internalServerError)
/// let client = APIClient(baseURL: url) {
///   $0.interceptors = [auth, retry]
/// }
/// ```
public struct RetryInterceptor: Interceptor {
  /// Attempts in total, the first included (3). 1 disables retries.
  public var maxAttempts: Int
  /// The backoff before the first retry, before jitter (0.5 s).
  public var baseDelay: TimeInterval
  /// The growth of the backoff per retry (2).
  public var multiplier: Double
  /// The cap on the backoff (30 s).
  public var maxDelay: TimeInterval
  /// Whether delays are drawn at random below the backoff (full jitter), so clients do not retry in lockstep.
  public var jitter: Bool
  /// The longest `Retry-After` waited for (60 s).
  public var maxRetryAfter: TimeInterval
  /// The statuses retried: 408, 429, 500, 502, 503, 504.
  public var retryableStatuses: Set<HTTPResponse.Status>
  /// The methods retried without an `Idempotency-Key`: GET, HEAD, PUT, DELETE, OPTIONS, TRACE.
  public var idempotentMethods: Set<HTTPRequest.Method>
  private let clock: any CallClock
  private let random: @Sendable () -> Double

  /// Creates the interceptor; every setting has the default named in its property's documentation.
  ///
  /// - Parameters:
  ///   - maxAttempts: Attempts in total, the first included; 1 disables retries.
  ///   - baseDelay: The backoff before the first retry, before jitter.
  ///   - multiplier: The growth of the backoff per retry.
  ///   - maxDelay: The cap on the backoff.
  ///   - jitter: Whether delays are drawn at random below the backoff.
  ///   - maxRetryAfter: The longest `Retry-After` waited for.
  ///   - retryableStatuses: The statuses retried.
  ///   - idempotentMethods: The methods retried without an `Idempotency-Key`.
  ///   - clock: What delays wait on; `nil` for the system clock. Inject a test clock to avoid sleeping.
  ///   - random: The jitter source, returning values in `0..<1`.
  public init(
    maxAttempts: Int = 3,
    baseDelay: TimeInterval = 0.5,
    multiplier: Double = 2,
    maxDelay: TimeInterval = 30,
    jitter: Bool = true,
    maxRetryAfter: TimeInterval = 60,
    retryableStatuses: Set<HTTPResponse.Status> = [
      .requestTimeout, .tooManyRequests, .internalServerError, .badGateway, .serviceUnavailable, .gatewayTimeout,
    ],
    idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace],
    clock: (any CallClock)? = nil,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.multiplier = multiplier
    self.maxDelay = maxDelay
    self.jitter = jitter
    self.maxRetryAfter = maxRetryAfter
    self.retryableStatuses = retryableStatuses
    self.idempotentMethods = idempotentMethods
    self.clock = clock ?? SystemCallClock()
    self.random = random
  }

  /// Sends the request, and again while the settings allow.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    let replayable = body.map { $0.isRepeatable } ?? true
    guard context[RetryableKey.self], maxAttempts > 1, replayable, allowsRetry(of: request) else {
      return try await next(request, body, context)
    }
    var context = context
    var attempt = 1
    while true {
      context.attempt = attempt
      let delay: TimeInterval
      let reason: String
      do {
        let (response, responseBody) = try await next(request, body, context)
        guard attempt < maxAttempts, retryableStatuses.contains(response.status) else {
          return (response, responseBody)
        }
        if let wait = Self.retryAfter(in: response, now: clock.now) {
          guard wait <= maxRetryAfter else { return (response, responseBody) }
          delay = wait
        } else {
          delay = backoff(beforeRetry: attempt, random: random())
        }
        reason = "status \(response.status.code)"
      } catch {
        let failure = CourierError(transportFailure: error, request: request)
        let transient = [.timeout, .connectionLost, .noConnection].contains(failure.kind)
        guard attempt < maxAttempts, transient, !Task.isCancelled else { throw failure }
        delay = backoff(beforeRetry: attempt, random: random())
        reason = failure.kind.description
      }
      // A delay of zero sleeps without looking at cancellation: a call that is over makes no more attempts.
      guard !Task.isCancelled else {
        throw CourierError(.cancelled, "The request was cancelled before its retry", request: request)
      }
      context.events.send(.retrying(callID: context.callID, attempt: attempt + 1, delay: delay, reason: reason))
      do {
        // The call's deadline cancels the task, which ends the delay.
        try await clock.sleep(seconds: delay)
      } catch {
        throw CourierError(.cancelled, "The request was cancelled while waiting to retry", request: request)
      }
      attempt += 1
    }
  }
}
