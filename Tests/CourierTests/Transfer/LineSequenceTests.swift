import Courier
import CourierTestSupport
import Foundation
import Testing

/// The line and JSON Lines decoders over hand-cut chunks.
@Suite struct LineSequenceTests {
  static func chunks(_ parts: [[UInt8]]) -> AsyncStream<Data> {
    AsyncStream { continuation in
      for part in parts { continuation.yield(Data(part)) }
      continuation.finish()
    }
  }

  static func lines(_ parts: [[UInt8]], maximumLineLength: Int = 1 << 20) async throws -> [String] {
    var result: [String] = []
    for try await line in chunks(parts).lines(maximumLineLength: maximumLineLength) { result.append(line) }
    return result
  }

  @Test func linesSpanChunksAndLineEndingsAreDropped() async throws {
    let parts: [[UInt8]] = [Array("fir".utf8), Array("st\r\nsec".utf8), Array("ond\n\nthird".utf8)]
    #expect(try await Self.lines(parts) == ["first", "second", "", "third"])
  }

  @Test func aCRLFSplitBetweenChunksIsOneLineEnding() async throws {
    #expect(try await Self.lines([Array("a\r".utf8), Array("\nb\r".utf8), Array("\n".utf8)]) == ["a", "b"])
  }

  @Test func aCharacterSplitBetweenChunksDecodesWhole() async throws {
    let bytes = Array("héllo 👋\n".utf8)
    let split = bytes.firstIndex(of: 0xF0)! + 2
    #expect(try await Self.lines([Array(bytes[..<split]), Array(bytes[split...])]) == ["héllo 👋"])
  }

  @Test func everyChunkSizeGivesTheSameLines() async throws {
    let text = (0..<50).map { "line \($0) ✓" }.joined(separator: "\n") + "\n"
    let bytes = Array(text.utf8)
    let expected = (0..<50).map { "line \($0) ✓" }
    for size in [1, 2, 3, 7, 64, bytes.count] {
      let parts = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
      #expect(try await Self.lines(parts) == expected, "chunks of \(size)")
    }
  }

  @Test func emptyStreamsHaveNoLines() async throws {
    #expect(try await Self.lines([]).isEmpty)
    #expect(try await Self.lines([[]]).isEmpty)
    #expect(try await Self.lines([Array("\n".utf8)]) == [""])
  }

  @Test func aTooLongLineThrowsATypedError() async throws {
    let error = await #expect(throws: CourierError.self) {
      _ = try await Self.lines(
        [Array("short\n".utf8), Array(repeating: UInt8(ascii: "x"), count: 40)], maximumLineLength: 16)
    }
    #expect(error?.kind == .decoding)
    #expect(error?.detail.contains("Line 2") == true)
  }

  struct Event: Decodable, Equatable {
    var index: Int
  }

  @Test func jsonLinesDecodeAndSkipBlankLines() async throws {
    let parts: [[UInt8]] = [Array(#"{"index":1}"#.utf8), Array("\n\n".utf8), Array(#"{"index":2}"#.utf8)]
    var events: [Event] = []
    for try await event in Self.chunks(parts).jsonLines(of: Event.self) { events.append(event) }
    #expect(events == [Event(index: 1), Event(index: 2)])
  }

  @Test func aBadJSONLineNamesItsNumber() async throws {
    let parts: [[UInt8]] = [Array("{\"index\":1}\n{\"index\":\"two\"}\n".utf8)]
    let error = await #expect(throws: CourierError.self) {
      for try await _ in Self.chunks(parts).jsonLines(of: Event.self) {}
    }
    #expect(error?.kind == .decoding)
    #expect(error?.detail.contains("Line 2") == true)
  }

  /// Chunks that count how many have been read.
  struct CountedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let parts: [Data]
    let reads: Locked<Int>

    struct AsyncIterator: AsyncIteratorProtocol {
      var remaining: ArraySlice<Data>
      let reads: Locked<Int>

      mutating func next() async -> Data? {
        guard let part = remaining.popFirst() else { return nil }
        reads.withLock { $0 += 1 }
        return part
      }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: parts[...], reads: reads) }
  }

  @Test func chunksAreReadOnlyAsLinesAreAskedFor() async throws {
    let reads = Locked(0)
    let chunks = CountedChunks(parts: ["a\n", "b\n", "c\n"].map { Data($0.utf8) }, reads: reads)
    let lines = chunks.lines()
    #expect(reads.withLock { $0 } == 0, "nothing is read before the iteration starts")
    var iterator = lines.makeAsyncIterator()
    #expect(try await iterator.next() == "a")
    #expect(reads.withLock { $0 } == 1, "no chunk is read ahead of the consumer")
    #expect(try await iterator.next() == "b")
    #expect(reads.withLock { $0 } == 2)
  }

  @Test func theStreamEndsAfterAnError() async throws {
    let parts: [[UInt8]] = [Array("{\"index\":\"one\"}\n{\"index\":2}\n".utf8)]
    var iterator = Self.chunks(parts).jsonLines(of: Event.self).makeAsyncIterator()
    var failure: (any Error)?
    do { _ = try await iterator.next() } catch { failure = error }
    #expect(failure is CourierError)
    #expect(try await iterator.next() == nil)
  }

  @Test(.hangGuard)
  func twoTasksIteratingOneStreamStopTheProgram() async {
    // A data race in the caller, reported as AsyncStream reports it, rather than two readers advancing one body.
    await #expect(processExitsWith: .failure) {
      let (chunks, continuation) = AsyncStream<Data>.makeStream()
      let lines = chunks.lines()
      let first = Task { for try await _ in lines {} }
      Task {
        try await Task.sleep(for: .seconds(30))
        continuation.finish()  // without the check, both loops end here and the process exits normally
      }
      try await Task.sleep(for: .milliseconds(300))
      for try await _ in lines {}
      _ = try await first.value
    }
  }
}
