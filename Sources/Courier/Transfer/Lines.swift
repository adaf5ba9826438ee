import Foundation

/// The lines of a byte stream, split by a ``LineSplitter``; what `lines(maximumLineLength:)` pulls from.
struct Lines<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
  typealias Element = String

  let base: Base
  let maximumLineLength: Int

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    var splitter: LineSplitter

    mutating func next() async throws -> String? {
      while true {
        if let line = try splitter.nextLine() { return line }
        guard !splitter.isFinished else { return nil }
        if let chunk = try await base.next() {
          splitter.append(chunk)
        } else {
          splitter.finish()
        }
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: base.makeAsyncIterator(), splitter: LineSplitter(maximumLineLength: maximumLineLength))
  }
}

/// Values decoded from the lines of a byte stream, one JSON document per line, blank lines skipped; what
/// `jsonLines(of:decoder:)` pulls from.
struct JSONLines<Value: Decodable, Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
  typealias Element = Value

  let lines: Lines<Base>
  let decoder: JSONDecoder

  struct AsyncIterator: AsyncIteratorProtocol {
    var lines: Lines<Base>.AsyncIterator
    let decoder: JSONDecoder
    var lineNumber = 0

    mutating func next() async throws -> Value? {
      while let line = try await lines.next() {
        lineNumber += 1
        guard !line.allSatisfy(\.isWhitespace) else { continue }
        do {
          return try decoder.decode(Value.self, from: Data(line.utf8))
        } catch {
          var failure = ResponseDecoding.failure(error, type: Value.self, data: Data(line.utf8))
          failure.detail = "Line \(lineNumber) of the JSON Lines stream: \(failure.detail)"
          throw failure
        }
      }
      return nil
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(lines: lines.makeAsyncIterator(), decoder: decoder)
  }
}
