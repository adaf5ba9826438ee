import Foundation

/// The lines of a byte stream, split at `\n` (a `\r` before it is dropped), decoded as UTF-8.
///
/// Lines may span chunks and a multi-byte character may be split between chunks; a last line without a final
/// newline is still delivered. A line longer than `maximumLineLength` bytes throws
/// ``CourierError/Kind-swift.struct/decoding`` instead of growing without bound.
///
/// ```swift
/// for try await line in try await client.stream(Endpoint<Data>.get("/events")).lines {
///   print(line)
/// }
/// ```
public struct LineSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
  /// A line, without its line ending.
  public typealias Element = String

  let base: Base
  let maximumLineLength: Int

  /// Splits `base` into lines of at most `maximumLineLength` bytes (1 MiB by default).
  public init(_ base: Base, maximumLineLength: Int = 1 << 20) {
    self.base = base
    self.maximumLineLength = maximumLineLength
  }

  /// Iterates the lines.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    var splitter: LineSplitter

    /// The next line, or `nil` at the end of the stream.
    public mutating func next() async throws -> String? {
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

  /// Starts the iteration.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: base.makeAsyncIterator(), splitter: LineSplitter(maximumLineLength: maximumLineLength))
  }
}

/// Splits bytes into lines; pure, so the edge cases are tested without a stream.
struct LineSplitter {
  let maximumLineLength: Int
  private var buffer = [UInt8]()
  /// Where the next line starts; bytes before it are dropped at the next `append`.
  private var lineStart = 0
  /// Where to look for the next newline: the bytes between `lineStart` and here hold none.
  private var searchFrom = 0
  private(set) var isFinished = false
  /// The number of the next line, from 1, for error messages.
  private(set) var lineNumber = 1

  init(maximumLineLength: Int) {
    self.maximumLineLength = maximumLineLength
  }

  mutating func append(_ chunk: Data) {
    if lineStart > 0 {
      buffer.removeFirst(lineStart)
      searchFrom -= lineStart
      lineStart = 0
    }
    buffer.append(contentsOf: chunk)
  }

  /// No more bytes will come: what is buffered is the last line.
  mutating func finish() {
    isFinished = true
  }

  /// The next complete line, or `nil` when more bytes are needed (or none are left).
  mutating func nextLine() throws -> String? {
    if let newline = buffer[searchFrom...].firstIndex(of: 0x0A) {
      return try take(upTo: newline, skipping: 1)
    }
    searchFrom = buffer.count
    try checkLength(buffer.count - lineStart)
    guard isFinished, lineStart < buffer.count else { return nil }
    return try take(upTo: buffer.count, skipping: 0)
  }

  private mutating func take(upTo end: Int, skipping separator: Int) throws -> String {
    var last = end
    if last > lineStart, buffer[last - 1] == 0x0D { last -= 1 }
    try checkLength(last - lineStart)
    let line = String(decoding: buffer[lineStart..<last], as: UTF8.self)
    lineStart = end + separator
    searchFrom = lineStart
    lineNumber += 1
    return line
  }

  private func checkLength(_ length: Int) throws {
    guard length > maximumLineLength else { return }
    throw CourierError(.decoding, "Line \(lineNumber) is longer than the limit of \(maximumLineLength) bytes")
  }
}

/// Values decoded from a JSON Lines stream (one JSON document per line; blank lines are skipped).
///
/// A line that does not decode throws ``CourierError/Kind-swift.struct/decoding`` naming the line number.
///
/// ```swift
/// for try await event in try await client.stream(Endpoint<Data>.get("/events")).jsonLines(of: Event.self) {
///   handle(event)
/// }
/// ```
public struct JSONLinesSequence<Value: Decodable, Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == Data {
  /// A decoded line.
  public typealias Element = Value

  let lines: LineSequence<Base>
  let decoder: JSONDecoder

  /// Decodes each line of `base` as `Value` with `decoder`.
  public init(_ base: Base, of type: Value.Type = Value.self, decoder: JSONDecoder = JSONDecoder()) {
    lines = LineSequence(base)
    self.decoder = decoder
  }

  /// Iterates the values.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var lines: LineSequence<Base>.AsyncIterator
    let decoder: JSONDecoder
    var lineNumber = 0

    /// The next value, or `nil` at the end of the stream.
    public mutating func next() async throws -> Value? {
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

  /// Starts the iteration.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(lines: lines.makeAsyncIterator(), decoder: decoder)
  }
}

extension HTTPBody {
  /// The body's lines (see ``LineSequence``).
  public var lines: LineSequence<HTTPBody> { LineSequence(self) }

  /// The body as JSON Lines (see ``JSONLinesSequence``).
  public func jsonLines<Value: Decodable>(
    of type: Value.Type = Value.self,
    decoder: JSONDecoder = JSONDecoder()
  ) -> JSONLinesSequence<Value, HTTPBody> {
    JSONLinesSequence(self, of: type, decoder: decoder)
  }
}
