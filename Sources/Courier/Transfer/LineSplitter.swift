import Foundation

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
