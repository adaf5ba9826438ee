import Courier
import Foundation

extension APIClient {
  /// Sends a list of endpoints of one value type, at most `maxConcurrent` at a time, and returns the responses in
  /// input order; the first failure cancels the calls in flight and is thrown.
  ///
  /// ```swift
  /// let ids = [3, 14, 15, 92]
  /// let products = try await client.sendAll(ids.map { Endpoint<Product>.get("/products/\($0)") }, maxConcurrent: 2)
  ///   .map(\.value)
  /// ```
  ///
  /// Use ``sendAll(_:maxConcurrent:continueOnError:progress:)`` with `continueOnError: true` to keep going past
  /// failures and get a `Result` for every endpoint.
  ///
  /// - Parameters:
  ///   - endpoints: The endpoints, all sent even when several are equal.
  ///   - maxConcurrent: The most calls in flight at once; at least 1, 4 by default.
  ///   - progress: Called once before the first call and after each call finishes; see ``BatchProgress``.
  /// - Returns: One response per endpoint, in the order of `endpoints`.
  /// - Throws: The first `CourierError` to happen; a cancelled calling task throws a cancellation error.
  public func sendAll<Value>(
    _ endpoints: [Endpoint<Value>],
    maxConcurrent: Int = 4,
    progress: (@Sendable (BatchProgress) -> Void)? = nil
  ) async throws -> [APIResponse<Value>] {
    let results = try await sendAll(endpoints, maxConcurrent: maxConcurrent, continueOnError: false, progress: progress)
    return try results.map { try $0.get() }
  }

  /// Sends a list of endpoints of one value type, at most `maxConcurrent` at a time, and returns each outcome in
  /// input order.
  ///
  /// With `continueOnError: true` every endpoint is sent whatever happens to the others, and each element of the
  /// result says how its call went. With `false` the first failure cancels the calls in flight, none is started
  /// after it, and that failure is thrown, so a returned array holds only successes.
  ///
  /// Progress comes as a callback, called from the batch's task; feed it to an `AsyncStream` to consume it
  /// elsewhere:
  ///
  /// ```swift
  /// let (updates, continuation) = AsyncStream.makeStream(of: BatchProgress.self)
  /// Task { for await update in updates { progressView.progress = update.fractionCompleted } }
  /// let results = try await client.sendAll(endpoints, maxConcurrent: 4, continueOnError: true) {
  ///   continuation.yield($0)
  /// }
  /// continuation.finish()
  /// for case .failure(let error) in results { log(error) }
  /// ```
  ///
  /// - Parameters:
  ///   - endpoints: The endpoints, all sent even when several are equal.
  ///   - maxConcurrent: The most calls in flight at once; at least 1.
  ///   - continueOnError: Whether a failure leaves the other calls running (`true`) or ends the batch (`false`).
  ///   - progress: Called once before the first call and after each call finishes; see ``BatchProgress``.
  /// - Returns: One result per endpoint, in the order of `endpoints`.
  /// - Throws: With `continueOnError: false`, the first `CourierError` to happen. Either way, a cancellation error
  ///   when the calling task is cancelled before every call finished.
  public func sendAll<Value>(
    _ endpoints: [Endpoint<Value>],
    maxConcurrent: Int,
    continueOnError: Bool,
    progress: (@Sendable (BatchProgress) -> Void)? = nil
  ) async throws -> [Result<APIResponse<Value>, CourierError>] {
    var report = BatchProgress(completed: 0, failed: 0, total: endpoints.count)
    progress?(report)
    var results = [Result<APIResponse<Value>, CourierError>?](repeating: nil, count: endpoints.count)
    try await withThrowingTaskGroup(of: (Int, Result<APIResponse<Value>, CourierError>).self) { group in
      var pending = endpoints.indices.makeIterator()
      for _ in 0..<min(max(maxConcurrent, 1), endpoints.count) {
        guard let index = pending.next() else { break }
        group.addTask { (index, await self.result(of: endpoints[index])) }
      }
      while let (index, result) = try await group.next() {
        results[index] = result
        report.completed += 1
        if case .failure(let error) = result {
          report.failed += 1
          progress?(report)
          if !continueOnError { throw error }
        } else {
          progress?(report)
        }
        if let index = pending.next() {
          _ = group.addTaskUnlessCancelled { (index, await self.result(of: endpoints[index])) }
        }
      }
    }
    return try Self.finished(results)
  }

  /// The outcome of one call, never throwing.
  private func result<Value>(of endpoint: Endpoint<Value>) async -> Result<APIResponse<Value>, CourierError> {
    do {
      return .success(try await send(endpoint))
    } catch {
      return .failure(error as? CourierError ?? CourierError(.transport, "\(error)", underlyingError: error))
    }
  }

  /// The results of a batch that ran to its end, or a cancellation error when the calling task was cancelled
  /// before every call finished (some never started, or ended as cancelled).
  private static func finished<Value>(
    _ results: [Result<APIResponse<Value>, CourierError>?]
  ) throws -> [Result<APIResponse<Value>, CourierError>] {
    let complete = results.compactMap { $0 }
    let interrupted = results.contains { result in
      guard let result else { return true }
      if case .failure(let error) = result { return error.isCancellation }
      return false
    }
    if complete.count < results.count || (interrupted && Task.isCancelled) {
      throw CourierError(.cancelled, "The batch was cancelled after \(complete.count) of \(results.count) calls")
    }
    return complete
  }
}
