import Foundation
import HTTPTypes

/// Lets at most `maxConcurrent` requests of a client reach the rest of the chain at once; the others wait in
/// first-in, first-out order, and a cancelled waiter — or one whose deadline passed — leaves the queue immediately.
///
/// A slot is held until the response head and a buffered body have arrived (streamed bodies release it as soon as
/// the head arrives).
///
/// ```swift
/// let client = APIClient(baseURL: url) { $0.interceptors = [ConcurrencyLimitInterceptor(maxConcurrent: 8)] }
/// ```
public struct ConcurrencyLimitInterceptor: Interceptor {
  private let semaphore: AsyncSemaphore
  /// The largest number of requests in flight at once.
  public let maxConcurrent: Int

  /// Creates a limit shared by every request that passes through this interceptor.
  public init(maxConcurrent: Int) {
    self.maxConcurrent = max(maxConcurrent, 1)
    semaphore = AsyncSemaphore(permits: maxConcurrent)
  }

  /// Waits for a slot, then passes the request on.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    do {
      try await semaphore.acquire()
    } catch {
      throw CourierError(.cancelled, "The request was cancelled while waiting for a free slot", request: request)
    }
    do {
      let result = try await next(request, body, context)
      await semaphore.release()
      return result
    } catch {
      await semaphore.release()
      throw error
    }
  }
}
