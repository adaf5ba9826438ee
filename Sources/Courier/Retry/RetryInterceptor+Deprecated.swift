import Foundation

/// The retry settings, which are now properties of ``RetryInterceptor``.
@available(*, deprecated, renamed: "RetryInterceptor")
public typealias RetryPolicy = RetryInterceptor

extension RetryInterceptor {
  /// Creates the interceptor with the settings of `policy`.
  ///
  /// - Parameters:
  ///   - policy: An interceptor whose settings to copy; its clock and jitter source are not used.
  ///   - clock: What delays wait on; `nil` for the system clock.
  ///   - random: The jitter source, returning values in `0..<1`.
  @available(*, deprecated, message: "pass the settings to RetryInterceptor(maxAttempts:...) directly")
  public init(
    policy: RetryInterceptor,
    clock: (any DelayClock)? = nil,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.init(
      maxAttempts: policy.maxAttempts, baseDelay: policy.baseDelay, multiplier: policy.multiplier,
      maxDelay: policy.maxDelay, jitter: policy.jitter, maxRetryAfter: policy.maxRetryAfter,
      retryableStatuses: policy.retryableStatuses, idempotentMethods: policy.idempotentMethods, clock: clock,
      random: random)
  }

  /// Never retry: one attempt.
  @available(*, deprecated, message: "use RetryInterceptor(maxAttempts: 1), or leave the interceptor out")
  public static var none: RetryInterceptor { RetryInterceptor(maxAttempts: 1) }
}
