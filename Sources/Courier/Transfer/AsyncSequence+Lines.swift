import Foundation

extension AsyncSequence where Self: Sendable, Element == Data {
  /// The lines of this byte stream, split at `\n` (a `\r` before it is dropped) and decoded as UTF-8.
  ///
  /// Lines may span chunks and a multi-byte character may be split between chunks; a last line without a final
  /// newline is still delivered. Chunks are read only as lines are asked for. A line longer than
  /// `maximumLineLength` bytes throws ``CourierError/Kind-swift.struct/decoding`` instead of growing without bound.
  /// The stream ends after its first error; a task cancelled between two lines sees the stream end, as with every
  /// `AsyncThrowingStream` (check `Task.isCancelled` after the loop when that matters).
  ///
  /// ```swift
  /// for try await line in chunks.lines(maximumLineLength: 64 << 10) {
  ///   print(line)
  /// }
  /// ```
  ///
  /// - Parameter maximumLineLength: The longest line accepted, in bytes (1 MiB by default).
  public func lines(maximumLineLength: Int = 1 << 20) -> AsyncThrowingStream<String, any Error> {
    AsyncThrowingStream(pulling: Lines(base: self, maximumLineLength: maximumLineLength))
  }

  /// Values decoded from this byte stream as JSON Lines: one JSON document per line, blank lines skipped.
  ///
  /// A line that does not decode throws ``CourierError/Kind-swift.struct/decoding`` naming the line number; a line
  /// over 1 MiB throws it too.
  ///
  /// ```swift
  /// for try await event in chunks.jsonLines(of: Event.self) {
  ///   handle(event)
  /// }
  /// ```
  public func jsonLines<Value: Decodable>(
    of type: Value.Type = Value.self,
    decoder: JSONDecoder = JSONDecoder()
  ) -> AsyncThrowingStream<Value, any Error> {
    let lines = Lines(base: self, maximumLineLength: 1 << 20)
    return AsyncThrowingStream(pulling: JSONLines<Value, Self>(lines: lines, decoder: decoder))
  }
}

extension BodyStream {
  /// The body's lines: `lines(maximumLineLength:)` with lines of up to 1 MiB.
  public var lines: AsyncThrowingStream<String, any Error> { self.lines(maximumLineLength: 1 << 20) }
}
