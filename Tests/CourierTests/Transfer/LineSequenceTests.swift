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
    for try await line in LineSequence(chunks(parts), maximumLineLength: maximumLineLength) { result.append(line) }
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
    for try await event in JSONLinesSequence(Self.chunks(parts), of: Event.self) { events.append(event) }
    #expect(events == [Event(index: 1), Event(index: 2)])
  }

  @Test func aBadJSONLineNamesItsNumber() async throws {
    let parts: [[UInt8]] = [Array("{\"index\":1}\n{\"index\":\"two\"}\n".utf8)]
    let error = await #expect(throws: CourierError.self) {
      for try await _ in JSONLinesSequence(Self.chunks(parts), of: Event.self) {}
    }
    #expect(error?.kind == .decoding)
    #expect(error?.detail.contains("Line 2") == true)
  }
}
