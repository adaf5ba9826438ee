/// An async iterator kept in a class, so that a `@Sendable` closure or a child task can advance it.
///
/// Nothing guards `iterator`: whoever shares a box must await each use before beginning the next.
final class IteratorBox<Iterator: AsyncIteratorProtocol>: @unchecked Sendable {
  // @unchecked Sendable: the uses of `iterator` never overlap. `AsyncThrowingStream(unfolding:)` calls its closure
  // once at a time, never concurrently (its iterator's `next()` is `mutating` and the iterator is not `Sendable`: a
  // stream has one consumer), and `IdleLimitedChunks` awaits the task that reads before it reads again.
  var iterator: Iterator

  init(_ iterator: Iterator) { self.iterator = iterator }
}
