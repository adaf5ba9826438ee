import Foundation
import HTTPTypes

/// When and how often ``RetryInterceptor`` repeats a request.
///
/// The delay before retry *n* is a random value between 0 and `min(maxDelay, baseDelay × multiplier^(n-1))`
/// ("full jitter"), unless the server sent `Retry-After` with a 429 or 503, which is honoured up to
/// `maxRetryAfter`; a longer `Retry-After` ends the retries and the response is returned.
///
/// ```swift
/// var policy = RetryPolicy()          // 3 attempts, 0.5 s base, ×2, capped at 30 s, full jitter
/// policy.maxAttempts = 5
/// policy.retryableStatuses.remove(500)
/// ```
public struct RetryPolicy: Sendable, Hashable {
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
  public var retryableStatuses: Set<Int>
  /// The methods retried without an `Idempotency-Key`: GET, HEAD, PUT, DELETE, OPTIONS, TRACE.
  public var idempotentMethods: Set<HTTPRequest.Method>

  /// Creates a policy; every parameter has the default named in its property's documentation.
  public init(
    maxAttempts: Int = 3,
    baseDelay: TimeInterval = 0.5,
    multiplier: Double = 2,
    maxDelay: TimeInterval = 30,
    jitter: Bool = true,
    maxRetryAfter: TimeInterval = 60,
    retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
    idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace]
  ) {
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.multiplier = multiplier
    self.maxDelay = maxDelay
    self.jitter = jitter
    self.maxRetryAfter = maxRetryAfter
    self.retryableStatuses = retryableStatuses
    self.idempotentMethods = idempotentMethods
  }

  /// Never retry.
  public static let none = RetryPolicy(maxAttempts: 1)

  /// The backoff before retry number `retry` (1 for the first retry), given a random draw in `0..<1`.
  public func backoff(beforeRetry retry: Int, random: Double) -> TimeInterval {
    let exponent = Double(max(retry - 1, 0))
    let ceiling = min(maxDelay, baseDelay * pow(multiplier, exponent))
    return jitter ? ceiling * min(max(random, 0), 1) : ceiling
  }

  /// Whether `request` may be sent more than once: an idempotent method, or an `Idempotency-Key`.
  public func allowsRetry(of request: HTTPRequest) -> Bool {
    idempotentMethods.contains(request.method) || request.headerFields[HTTPField.Name("Idempotency-Key")!] != nil
  }

  /// The wait a 429 or 503 asks for in `Retry-After` (seconds or an HTTP-date), measured from `now`.
  public static func retryAfter(in response: HTTPResponse, now: Date) -> TimeInterval? {
    guard [429, 503].contains(response.status.code), let value = response.headerFields[.retryAfter] else {
      return nil
    }
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Int(trimmed) { return seconds >= 0 ? TimeInterval(seconds) : nil }
    return HTTPDate.parse(trimmed).map { max(0, $0.timeIntervalSince(now)) }
  }
}
