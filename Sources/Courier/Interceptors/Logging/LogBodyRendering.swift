import Foundation

/// How a body appears in a log line: redacted text cut at a byte limit, `<binary, N bytes>`, or `<stream, N bytes>`.
struct LogBodyRendering: Sendable {
  let redactor: LogRedactor
  let maxBytes: Int

  /// Bodies up to this size are parsed whole for redaction; of a larger one only the first `maxBytes` are read.
  static let parseLimit = 1 << 20

  /// The text to log for `body`, or `nil` when there is none. A streamed body is described, never read.
  func text(for body: BodyStream?, contentType: String?) -> String? {
    guard let body else { return nil }
    guard let data = body.bufferedData else { return Self.streamDescription(body) }
    return data.isEmpty ? nil : text(for: data, contentType: contentType)
  }

  /// `<stream, N bytes>` when the length is known, else `<stream>`.
  static func streamDescription(_ body: BodyStream) -> String {
    if let length = body.length { return "<stream, \(length) bytes>" }
    return "<stream>"
  }

  /// The redacted, truncated text of `data`, or `<binary, N bytes>` when it is not UTF-8.
  func text(for data: Data, contentType: String?) -> String {
    let isComplete = data.count <= max(Self.parseLimit, maxBytes)
    let sample = isComplete ? data : Data(data.prefix(max(maxBytes, 0)))
    guard let (text, usedBytes) = Self.utf8(sample, allowingCutCharacter: !isComplete) else {
      return "<binary, \(data.count) bytes>"
    }
    let redacted = redactor.body(text, contentType: contentType, isComplete: isComplete)
    return truncated(redacted, totalBytes: redacted.utf8.count + data.count - usedBytes)
  }

  /// Decodes `data` as UTF-8; when `allowingCutCharacter`, up to three trailing bytes of a character cut in half
  /// are dropped. Returns the text and how many bytes it used.
  static func utf8(_ data: Data, allowingCutCharacter: Bool) -> (String, Int)? {
    for dropped in 0...(allowingCutCharacter ? min(3, data.count) : 0) {
      if let text = String(data: data.dropLast(dropped), encoding: .utf8) { return (text, data.count - dropped) }
    }
    return nil
  }

  /// The first `maxBytes` bytes of `text`, cut between characters, and a note of how many of `totalBytes` are left.
  func truncated(_ text: String, totalBytes: Int) -> String {
    var keptBytes = 0
    var end = text.startIndex
    for index in text.indices {
      let size = text[index].utf8.count
      guard keptBytes + size <= maxBytes else { break }
      keptBytes += size
      end = text.index(after: index)
    }
    let omitted = totalBytes - keptBytes
    guard omitted > 0 else { return text }
    return "\(text[..<end])… (\(omitted) more bytes)"
  }
}
