/// An async iterator kept in a class, so that a `@Sendable` closure or a child task can advance it.
///
/// Uses of `iterator` must not overlap: whoever shares a box awaits each `next()` before beginning the next one.
/// ``next()`` checks it, and stops the program when two calls overlap, as `AsyncStream` does when two tasks iterate
/// it: that is a data race in the caller, not bad input.
final class IteratorBox<Iterator: AsyncIteratorProtocol>: @unchecked Sendable {
  // Unchecked: the uses of `iterator` never overlap. `AsyncThrowingStream(unfolding:)` calls its closure
  // once at a time for one consumer (its iterator's `next()` is `mutating` and the iterator is not `Sendable`), and
  // `IdleLimitedChunks` awaits the task that reads before it reads again; `next()` traps on an overlap.
  var iterator: Iterator
  private let busy = Locked(false)

  init(_ iterator: Iterator) { self.iterator = iterator }

  /// The iterator's next element; traps when another `next()` is still running.
  func next() async throws -> Iterator.Element? {
    let overlapping = busy.withLock { busy in
      defer { busy = true }
      return busy
    }
    precondition(!overlapping, "Two tasks are iterating one stream at the same time; a stream has one consumer")
    defer { busy.withLock { $0 = false } }
    return try await iterator.next()
  }
}
