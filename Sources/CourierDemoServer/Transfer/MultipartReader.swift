#if canImport(Hummingbird)
import Foundation
import MultipartKit
import NIOCore

/// Reads a `multipart/form-data` body chunk by chunk as it arrives, with MultipartKit's streaming `MultipartParser`,
/// keeping per part only its headers, a running SHA-256 and (for plain fields) the first KiB.
///
/// Feed every chunk to ``feed(_:)``, then call ``finish()``. Problems never throw from ``feed(_:)``: the first one is
/// remembered, later bytes are only counted, and ``finish()`` reports it, so the caller can read the body to its end
/// before answering.
///
/// The parser reads the preamble, every delimiter line, every header block and the start of the epilogue. Inside a
/// part's body the reader finds the next delimiter itself (`memchr` for a CR, then `memcmp`) and hands the bytes
/// before it straight to the part's digest, which is exactly what the parser would pass on through `onBody`: it
/// looks at body bytes one at a time through generic `ByteBufferView` calls, about 1 µs a byte in a debug build
/// (a 1 GiB upload would take 20 minutes), where this runs at memory speed.
///
/// What MultipartKit 4.7's parser leaves to its caller, and how this type covers it:
/// - It never tells whether the body ended properly, and accepts a body cut off anywhere. ``finish()`` feeds it a
///   probe (a delimiter and a header line): only after the closing delimiter, in the epilogue, does the probe go
///   unnoticed; in any other state it causes a callback or a syntax error.
/// - It collects header lines (and skips the preamble) without any limit. The reader counts the bytes fed since the
///   last callback and gives up past ``maxHeaderBytes``, unless the probe shows the parser is in the epilogue; and it
///   allows at most ``maxHeaderLines`` header lines a part.
/// - Its callbacks cannot throw, and it traps on an empty boundary (``MultipartBoundary`` validates it first).
/// - A form without parts (`--boundary--`) is a syntax error for it; the reader accepts it as an empty form.
/// - Header values that are not UTF-8 reach `onHeader` as empty strings.
@available(macOS 14, iOS 17, tvOS 17, *)
final class MultipartReader {
  /// About the most bytes the parser may read without a callback: the longest header line, or preamble.
  static let maxHeaderBytes = 16 * 1024
  /// The most header lines a part may have.
  static let maxHeaderLines = 32
  /// The most parts a form may have.
  static let maxParts = 1_000
  /// Outside part bodies, bytes are fed to the parser line by line, and longer lines in slices of this size.
  private static let sliceSize = 1024
  /// Bytes kept from the start of the body to recognise a form without parts.
  private static let leadingSize = 128

  /// Where the reader is between callbacks.
  private enum Phase {
    /// Before the first part's headers.
    case preamble
    /// Collecting a part's header lines.
    case headers
    /// Streaming a part's body.
    case body
    /// A part is complete; either another part or the end follows.
    case between
    /// The closing delimiter was seen (only known once a probe went unnoticed).
    case epilogue
  }

  private let boundary: String
  /// `CRLF--boundary`, what ends a part's body.
  private let delimiter: [UInt8]
  private let parser: MultipartParser
  private var phase = Phase.preamble
  private var headerLines: [(name: String, value: String)] = []
  private var current: PartDigest?
  private var parts: [UploadedPart] = []
  private var failure: MultipartFailure?
  private var totalBytes: Int64 = 0
  private var quietBytes = 0
  private var probing = false
  private var reacted = false
  private var leading: [UInt8] = []
  /// The end of the previous chunk, not fed yet: the start of a line, or of what might be the delimiter.
  private var carry = ByteBuffer()
  /// Whether the parser is known to be in a part's body and not inside a possible delimiter, which is when the
  /// reader may pass body bytes on by itself.
  private var bodyIsExact = false

  /// Creates a reader for `boundary`, which must be valid (see ``MultipartBoundary/parse(contentType:)``).
  init(boundary: String) {
    self.boundary = boundary
    delimiter = Array("\r\n--\(boundary)".utf8)
    parser = MultipartParser(boundary: boundary)
    parser.onHeader = { [unowned self] name, value in header(name: name, value: value) }
    parser.onBody = { [unowned self] buffer in body(buffer) }
    parser.onPartComplete = { [unowned self] in partComplete() }
  }

  /// Parses the next chunk of the body.
  func feed(_ chunk: ByteBuffer) {
    if leading.count < Self.leadingSize {
      leading.append(contentsOf: chunk.readableBytesView.prefix(Self.leadingSize - leading.count))
    }
    totalBytes += Int64(chunk.readableBytes)
    var data = chunk
    if carry.readableBytes > 0 {
      data = carry
      data.writeImmutableBuffer(chunk)
      carry.clear()
    }
    while data.readableBytes > 0, failure == nil, phase != .epilogue {
      if phase == .body, bodyIsExact {
        consumeBody(&data)
        continue
      }
      guard let line = nextLine(&data) else {
        carry = data.readSlice(length: data.readableBytes)!
        return
      }
      feedLine(line)
    }
  }

  /// The report, once the whole body was fed; throws the first problem found, or when the body ended before the
  /// closing delimiter.
  func finish() throws(MultipartFailure) -> UploadReport {
    if carry.readableBytes > 0, failure == nil {
      execute(carry)
      carry.clear()
    }
    if let failure {
      guard parts.isEmpty, isFormWithoutParts() else { throw failure }
      return UploadReport(parts: [], totalBytes: totalBytes)
    }
    if phase != .epilogue, probeReacts() {
      if parts.isEmpty, current == nil {
        throw MultipartFailure("No complete part found for boundary '\(boundary)' (wrong boundary or cut-off body)")
      }
      throw MultipartFailure("The body ends before the closing delimiter '--\(boundary)--'")
    }
    return UploadReport(parts: parts, totalBytes: totalBytes)
  }

  // MARK: Parser callbacks

  private func header(name: String, value: String) {
    event()
    guard failure == nil, !probing else { return }
    switch phase {
    case .preamble, .between:
      phase = .headers
      headerLines = [(name, value)]
    case .headers:
      guard headerLines.count < Self.maxHeaderLines else {
        return fail("Part \(parts.count + 1) has more than \(Self.maxHeaderLines) header lines")
      }
      headerLines.append((name, value))
    case .body, .epilogue:
      fail("Unexpected header line in part \(parts.count + 1)")
    }
  }

  private func body(_ buffer: ByteBuffer) {
    event()
    guard failure == nil, !probing else { return }
    if phase != .body {
      startPart()
    }
    current?.add(buffer)
  }

  private func partComplete() {
    event()
    guard failure == nil, !probing else { return }
    if phase != .body {
      startPart()
    }
    if let part = current?.finish() {
      parts.append(part)
    }
    current = nil
    phase = .between
    bodyIsExact = false
  }

  // MARK: Feeding

  /// The next line of `data` (through its LF), or ``sliceSize`` bytes of a longer one; `nil` when `data` only holds
  /// the start of a shorter line.
  private func nextLine(_ data: inout ByteBuffer) -> ByteBuffer? {
    let length = data.withUnsafeReadableBytes { raw in
      memchr(raw.baseAddress!, 0x0A, min(raw.count, Self.sliceSize)).map { UnsafeRawPointer($0) - raw.baseAddress! + 1 }
    }
    if let length {
      return data.readSlice(length: length)
    }
    return data.readableBytes >= Self.sliceSize ? data.readSlice(length: Self.sliceSize) : nil
  }

  /// Feeds one line outside a part's body. A blank line that ends a part's header block (no header completes with
  /// it) leaves the parser at the start of the body, with nothing pending: from there the reader streams the body.
  private func feedLine(_ line: ByteBuffer) {
    let endsHeaders =
      phase == .headers && line.readableBytes == 2
      && line.getInteger(at: line.readerIndex, as: UInt16.self) == 0x0D0A
    quietBytes += line.readableBytes
    reacted = false
    execute(line)
    if endsHeaders, !reacted, failure == nil {
      startPart()
      bodyIsExact = phase == .body
    }
    if quietBytes > Self.maxHeaderBytes {
      checkQuietStretch()
    }
  }

  /// Hands `buffer` to the parser, turning a syntax error into the failure.
  private func execute(_ buffer: ByteBuffer) {
    do {
      try parser.execute(buffer)
    } catch {
      fail("Malformed multipart body (bad delimiter line or part headers) in its first \(totalBytes) bytes")
    }
  }

  /// Consumes `data` while the parser is in a part's body: the bytes before the delimiter go to the part's digest
  /// directly, the delimiter and the byte after it to the parser, which ends the part. When the chunk ends inside a
  /// possible delimiter, or right after one, those last bytes wait in ``carry`` for the next chunk.
  private func consumeBody(_ data: inout ByteBuffer) {
    while phase == .body, failure == nil, data.readableBytes > 0 {
      quietBytes = 0
      guard let candidate = data.withUnsafeReadableBytes({ delimiterCandidate(in: $0) }) else {
        current?.add(data.readSlice(length: data.readableBytes)!)
        return
      }
      if candidate.offset > 0 {
        current?.add(data.readSlice(length: candidate.offset)!)
      }
      guard candidate.isComplete, data.readableBytes > delimiter.count else {
        carry = data.readSlice(length: data.readableBytes)!
        return
      }
      execute(data.readSlice(length: delimiter.count + 1)!)
    }
  }

  /// The first place in `raw` where the delimiter starts, or where a CR starts a prefix of it that `raw` cuts off;
  /// `nil` when there is neither.
  ///
  /// The parser matches the delimiter the same way: its only CR is the first byte, so a failed match can only
  /// restart at a later CR, and the bytes skipped meanwhile are body bytes it would pass on through `onBody`.
  private func delimiterCandidate(in raw: UnsafeRawBufferPointer) -> (offset: Int, isComplete: Bool)? {
    guard let base = raw.baseAddress else { return nil }
    return delimiter.withUnsafeBytes { needle in
      var start = 0
      while start < raw.count, let carriageReturn = memchr(base + start, 0x0D, raw.count - start) {
        let offset = UnsafeRawPointer(carriageReturn) - base
        let compared = min(needle.count, raw.count - offset)
        if memcmp(carriageReturn, needle.baseAddress!, compared) == 0 {
          return (offset, compared == needle.count)
        }
        start = offset + 1
      }
      return nil
    }
  }

  // MARK: Helpers

  /// Validates the collected header lines and starts streaming the part's body.
  private func startPart() {
    let number = parts.count + 1
    guard parts.count < Self.maxParts else {
      return fail("The form has more than \(Self.maxParts) parts")
    }
    let lines = headerLines
    headerLines = []
    let dispositions = lines.filter { $0.name.lowercased() == "content-disposition" }
    let contentTypes = lines.filter { $0.name.lowercased() == "content-type" }
    guard dispositions.count == 1, contentTypes.count <= 1 else {
      let problem =
        dispositions.isEmpty ? "no Content-Disposition" : "more than one Content-Disposition or Content-Type"
      return fail("Part \(number) has \(problem)")
    }
    do {
      let disposition = try FormDataDisposition(fieldValue: dispositions[0].value)
      current = PartDigest(
        name: disposition.name, filename: disposition.filename, contentType: contentTypes.first?.value)
      phase = .body
    } catch {
      fail("Part \(number): \(error.message)")
    }
  }

  private func event() {
    quietBytes = 0
    reacted = true
  }

  private func fail(_ message: String) {
    if failure == nil {
      failure = MultipartFailure(message)
    }
  }

  /// Many bytes went by without a callback: the epilogue (fine, the rest is skipped) or oversized headers.
  private func checkQuietStretch() {
    if phase == .between, !probeReacts() {
      phase = .epilogue
      return
    }
    fail("Part \(parts.count + 1): a header line (or the preamble) exceeds \(Self.maxHeaderBytes / 1024) KiB")
  }

  /// Feeds a delimiter and a header line; returns whether the parser noticed (it does in every state but the
  /// epilogue), in which case its state is spoilt.
  private func probeReacts() -> Bool {
    probing = true
    reacted = false
    defer { probing = false }
    do {
      try parser.execute("\r\n--\(boundary)\r\nX-Probe: 1\r\n")
    } catch {
      return true
    }
    return reacted
  }

  /// Whether the whole body is just the closing delimiter, `--boundary--`, with optional CRLFs around it.
  private func isFormWithoutParts() -> Bool {
    guard totalBytes == Int64(leading.count) else { return false }
    let isLineBreak: (UInt8) -> Bool = { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
    let trimmed = leading.drop(while: isLineBreak).reversed().drop(while: isLineBreak).reversed()
    return Array(trimmed) == Array("--\(boundary)--".utf8)
  }
}
#endif
