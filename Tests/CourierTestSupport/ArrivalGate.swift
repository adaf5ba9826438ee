import Courier

/// Two interceptors that hold a shared transfer until every caller has joined it, for tests of deduplication.
///
/// Put `counter` before `DeduplicationInterceptor` and `gate` after it: every call passes `counter`, only the call
/// that leads a transfer reaches `gate`, and the gate lets it go on once `expected` calls have arrived,
/// so no caller can come after the shared transfer ended, however late a loaded machine runs it.
public struct ArrivalGate: Sendable {
  /// Counts the calls that arrive.
  public let counter: ClosureInterceptor
  /// Waits until `expected` calls arrived before going on.
  public let gate: ClosureInterceptor

  /// A gate that opens once `expected` calls have passed the counter.
  public init(expecting expected: Int) {
    let arrived = Locked(0)
    counter = ClosureInterceptor { request, body, context, next in
      arrived.withLock { $0 += 1 }
      return try await next(request, body, context)
    }
    gate = ClosureInterceptor { request, body, context, next in
      try await waitUntil("\(expected) calls arrived") { arrived.withLock { $0 } >= expected }
      return try await next(request, body, context)
    }
  }
}
