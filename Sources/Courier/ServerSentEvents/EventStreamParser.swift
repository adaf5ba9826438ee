import Foundation

/// Parses `text/event-stream` bytes into events, by the rules of the WHATWG HTML standard ("Server-sent events",
/// §9.2.6 "Interpreting an event stream"); pure, so every rule is tested without a connection.
///
/// Lines end at CR, LF or CRLF (a CR at the end of one chunk and an LF at the start of the next are one line end);
/// a UTF-8 byte order mark is skipped at the start of the stream only; bytes are decoded as UTF-8 with invalid
/// sequences replaced. A line starting with `:` is a comment. A field's value follows its first colon, less one
/// leading space. `data` appends its value and a line feed; `event` sets the type; `id` sets the last event ID
/// unless it contains NUL; `retry` sets the reconnection delay when it is ASCII digits only; other fields are
/// ignored. An empty line dispatches the event, unless its data is empty. An event still open when the stream ends
/// is dropped.
struct EventStreamParser {
  /// An event and the number of the line its block started on (from 1, per connection), for error messages.
  struct Parsed: Equatable {
    var event: ServerEvent
    var line: Int
  }

  /// The largest line and the largest event data, in bytes; more throws instead of growing without bound.
  let maximumEventSize: Int
  /// The last event ID; kept across connections by the caller (it is what `Last-Event-ID` sends).
  var lastEventID: String
  /// The reconnection delay the stream set with `retry:`, in milliseconds.
  private(set) var reconnectionDelay: Int?

  private var buffer = [UInt8]()
  private var lineStart = 0
  private var atStreamStart = true
  /// The previous chunk ended with a CR, so an LF at the start of this one belongs to it.
  private var skipLineFeed = false
  private var lineNumber = 1

  private var data = [UInt8]()
  private var hasData = false
  private var eventType = ""
  private var retry: Int?
  private var blockStart: Int?

  init(lastEventID: String = "", maximumEventSize: Int = 1 << 20) {
    self.lastEventID = lastEventID
    self.maximumEventSize = maximumEventSize
  }

  /// Parses `chunk` and returns the events it completes.
  mutating func parse(_ chunk: some Collection<UInt8>) throws -> [Parsed] {
    if lineStart > 0 {
      buffer.removeFirst(lineStart)
      lineStart = 0
    }
    // Bytes before `index` were scanned by an earlier call and hold no line end.
    var index = buffer.count
    buffer.append(contentsOf: chunk)
    if atStreamStart {
      if buffer.count < 3, buffer.elementsEqual(bom.prefix(buffer.count)) { return [] }
      atStreamStart = false
      if buffer.starts(with: bom) { buffer.removeFirst(3) }
      index = 0
    }
    var events: [Parsed] = []
    if skipLineFeed, index < buffer.count {
      skipLineFeed = false
      if buffer[index] == 0x0A {
        index += 1
        lineStart = index
      }
    }
    while index < buffer.count {
      let byte = buffer[index]
      guard byte == 0x0A || byte == 0x0D else {
        index += 1
        continue
      }
      if let event = try line(buffer[lineStart..<index]) { events.append(event) }
      index += 1
      if byte == 0x0D {
        if index == buffer.count {
          skipLineFeed = true
        } else if buffer[index] == 0x0A {
          index += 1
        }
      }
      lineStart = index
    }
    if buffer.count - lineStart > maximumEventSize {
      throw CourierError(
        .decoding, "Line \(lineNumber) of the event stream is longer than the limit of \(maximumEventSize) bytes")
    }
    return events
  }

  private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Interprets one line; returns the event an empty line dispatches.
  private mutating func line(_ line: ArraySlice<UInt8>) throws -> Parsed? {
    defer { lineNumber += 1 }
    guard !line.isEmpty else { return dispatch() }
    guard line.first != 0x3A else { return nil }  // ":" starts a comment
    if blockStart == nil { blockStart = lineNumber }
    let name: ArraySlice<UInt8>
    var value: ArraySlice<UInt8>
    if let colon = line.firstIndex(of: 0x3A) {
      name = line[..<colon]
      value = line[(colon + 1)...]
      if value.first == 0x20 { value = value.dropFirst() }
    } else {
      name = line
      value = []
    }
    switch String(decoding: name, as: UTF8.self) {
    case "data":
      if data.count + value.count + 1 > maximumEventSize {
        throw CourierError(
          .decoding,
          "The event starting at line \(blockStart ?? lineNumber) of the event stream has more data than the limit "
            + "of \(maximumEventSize) bytes")
      }
      data.append(contentsOf: value)
      data.append(0x0A)
      hasData = true
    case "event":
      eventType = String(decoding: value, as: UTF8.self)
    case "id":
      if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
    case "retry":
      if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) {
        let milliseconds = value.reduce(0) { total, digit in
          let (times10, overflow1) = total.multipliedReportingOverflow(by: 10)
          let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - 0x30))
          return overflow1 || overflow2 ? Int.max : sum
        }
        reconnectionDelay = milliseconds
        retry = milliseconds
      }
    default:
      break
    }
    return nil
  }

  /// Ends the current block: an event when it has data, otherwise nothing; the buffers start over either way.
  private mutating func dispatch() -> Parsed? {
    defer {
      data.removeAll(keepingCapacity: true)
      hasData = false
      eventType = ""
      retry = nil
      blockStart = nil
    }
    guard hasData else { return nil }
    data.removeLast()  // the line feed after the last data line
    let event = ServerEvent(
      id: lastEventID, event: eventType.isEmpty ? "message" : eventType, data: String(decoding: data, as: UTF8.self),
      retry: retry.map { TimeInterval($0) / 1000 })
    return Parsed(event: event, line: blockStart ?? lineNumber)
  }

  /// The stream ended (the connection closed): an event without its final empty line is dropped, and the next
  /// connection starts a new stream (byte order mark, line numbers), keeping the last event ID and the delay.
  mutating func reset() {
    let delay = reconnectionDelay
    self = EventStreamParser(lastEventID: lastEventID, maximumEventSize: maximumEventSize)
    reconnectionDelay = delay
  }
}
