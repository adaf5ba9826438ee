extension AsyncThrowingStream where Failure == any Error {
  /// A stream over `base` that reads only when its consumer asks: each `next()` pulls one element from `base`,
  /// so nothing is read ahead of the consumer (back-pressure is kept).
  ///
  /// `base`'s iterator is made by the first `next()` and dropped after the last element or the first error, or when
  /// the consuming task is cancelled or stops iterating; dropping it closes what it reads (a response body).
  init<Base: AsyncSequence & Sendable>(pulling base: Base) where Base.Element == Element {
    // The stream calls the closure once at a time, so the box's iterator is never advanced concurrently.
    let box = IteratorBox(PullingIterator(base))
    self.init(unfolding: { try await box.next() })
  }
}

/// Makes `base`'s iterator at the first `next()` and drops it at the end or at the first error, after which it
/// returns `nil`.
struct PullingIterator<Base: AsyncSequence>: AsyncIteratorProtocol {
  private enum State {
    case idle(Base)
    case running(Base.AsyncIterator)
    case finished
  }

  private var state: State

  init(_ base: Base) {
    state = .idle(base)
  }

  mutating func next() async throws -> Base.Element? {
    if case .idle(let base) = state { state = .running(base.makeAsyncIterator()) }
    guard case .running(var iterator) = state else { return nil }
    // Moved out while it runs, so the buffers it holds stay uniquely referenced (no copy on write); put back only
    // when it can go on.
    state = .finished
    guard let element = try await iterator.next() else { return nil }
    state = .running(iterator)
    return element
  }
}
