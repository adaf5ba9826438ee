import Foundation
import HTTPTypes

extension RetryInterceptor {
  /// The backoff before retry number `retry` (1 for the first retry), given a random draw in `0..<1`.
  package func backoff(beforeRetry retry: Int, random: Double) -> TimeInterval {
    let exponent = Double(max(retry - 1, 0))
    let ceiling = min(maxDelay, baseDelay * pow(multiplier, exponent))
    return jitter ? ceiling * min(max(random, 0), 1) : ceiling
  }

  /// Whether `request` may be sent more than once: an idempotent method, or an `Idempotency-Key`.
  package func allowsRetry(of request: HTTPRequest) -> Bool {
    idempotentMethods.contains(request.method) || request.headerFields[HTTPField.Name("Idempotency-Key")!] != nil
  }

  /// The wait a 429 or 503 asks for in `Retry-After` (seconds or an HTTP-date), measured from `now`.
  package static func retryAfter(in response: HTTPResponse, now: Date) -> TimeInterval? {
    guard [429, 503].contains(response.status.code), let value = response.headerFields[.retryAfter] else {
      return nil
    }
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Int(trimmed) { return seconds >= 0 ? TimeInterval(seconds) : nil }
    return HTTPDate.parse(trimmed).map { max(0, $0.timeIntervalSince(now)) }
  }
}
