import Foundation
import HTTPTypes

/// Repeats requests that failed for reasons that may pass: timeouts, lost or refused connections, and the
/// statuses of the ``RetryPolicy`` (408, 429, 500, 502, 503, 504).
///
/// It retries only what is safe to send twice: idempotent methods, or requests with an `Idempotency-Key`, and only
/// bodies that can be replayed. Cancellation is never retried, and cancelling the task ends a wait at once.
///
/// ```swift
/// let client = APIClient(baseURL: url) {
///   $0.interceptors = [auth, RetryInterceptor(policy: RetryPolicy(maxAttempts: 4))]
/// }
/// ```
public struct RetryInterceptor: Interceptor {
  /// The policy.
  public let policy: RetryPolicy
  private let clock: any DelayClock
  private let random: @Sendable () -> Double

  /// Creates the interceptor.
  ///
  /// - Parameters:
  ///   - policy: When and how often to retry.
  ///   - clock: What delays wait on; inject a test clock to avoid sleeping.
  ///   - random: The jitter source, returning values in `0..<1`.
  public init(
    policy: RetryPolicy = RetryPolicy(),
    clock: any DelayClock = SystemDelayClock(),
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.policy = policy
    self.clock = clock
    self.random = random
  }

  /// Sends the request, and again while the policy allows.
  public func intercept(
    _ request: HTTPRequest,
    body: HTTPBody?,
    context: RequestContext,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let replayable = body.map { $0.iterationBehavior == .multiple } ?? true
    guard context[RetryableKey.self], policy.maxAttempts > 1, replayable, policy.allowsRetry(of: request) else {
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
        guard attempt < policy.maxAttempts, policy.retryableStatuses.contains(response.status.code) else {
          return (response, responseBody)
        }
        if let wait = RetryPolicy.retryAfter(in: response, now: clock.now) {
          guard wait <= policy.maxRetryAfter else { return (response, responseBody) }
          delay = wait
        } else {
          delay = policy.backoff(beforeRetry: attempt, random: random())
        }
        reason = "status \(response.status.code)"
      } catch {
        let failure = CourierError(transportFailure: error, request: request)
        let transient = [.timeout, .connectionLost, .noConnection].contains(failure.kind)
        guard attempt < policy.maxAttempts, transient, !Task.isCancelled else { throw failure }
        delay = policy.backoff(beforeRetry: attempt, random: random())
        reason = failure.kind.description
      }
      context.events.send(.retrying(callID: context.callID, attempt: attempt + 1, delay: delay, reason: reason))
      do {
        try await clock.sleep(seconds: delay)
      } catch {
        throw CourierError(.cancelled, "The request was cancelled while waiting to retry", request: request)
      }
      attempt += 1
    }
  }
}
