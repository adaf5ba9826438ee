import Foundation
import Testing

@testable import Courier

/// The WHATWG rules for interpreting an event stream, each fed whole, split in two at every byte, and byte by byte.
@Suite struct EventStreamParserTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let events: [ServerEvent]
    /// The last event ID after the stream; by default the last event's.
    let lastEventID: String
    let delay: Int?

    init(
      _ name: String, _ input: String, _ events: [ServerEvent], lastEventID: String? = nil, delay: Int? = nil
    ) {
      self.name = name
      self.input = Array(input.utf8)
      self.events = events
      self.lastEventID = lastEventID ?? events.last?.id ?? ""
      self.delay = delay
    }

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case("one event", "data: hello\n\n", [ServerEvent(data: "hello")]),
    Case("multi-line data joined with LF", "data: a\ndata: b\ndata: c\n\n", [ServerEvent(data: "a\nb\nc")]),
    Case("only one leading space is dropped", "data:x\n\ndata:  y\n\n", [.init(data: "x"), .init(data: " y")]),
    Case("a value keeps later colons", "data: a: b\n\n", [.init(data: "a: b")]),
    Case("empty data lines", "data\ndata\n\ndata:\n\n", [.init(data: "\n"), .init(data: "")]),
    Case("comments are skipped", ": hello\ndata: x\n: between\n\n:heartbeat\n\n", [.init(data: "x")]),
    Case(
      "CR, LF and CRLF line ends", "data: a\rdata: b\r\n\r\ndata: c\n\ndata: d\r\r",
      [.init(data: "a\nb"), .init(data: "c"), .init(data: "d")]),
    Case("CR CR is two line ends", "data: a\r\rdata: b\r\n\r\n", [.init(data: "a"), .init(data: "b")]),
    Case("a byte order mark at the start is skipped", "\u{FEFF}data: x\n\n", [.init(data: "x")]),
    Case("a byte order mark elsewhere is part of the field name", "data: x\n\n\u{FEFF}data: y\n\n", [.init(data: "x")]),
    Case(
      "an empty or missing event type is message", "event:\ndata: a\n\nevent: ping\ndata: b\n\ndata: c\n\n",
      [.init(data: "a"), .init(event: "ping", data: "b"), .init(data: "c")]),
    Case(
      "the last event ID persists until changed", "id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
      [.init(id: "7", data: "a"), .init(id: "7", data: "b"), .init(id: "", data: "c")]),
    Case(
      "an id containing NUL is ignored", "id: 1\ndata: a\n\nid: 2\u{0}\ndata: b\n\n",
      [
        .init(id: "1", data: "a"), .init(id: "1", data: "b"),
      ], lastEventID: "1"),
    Case("a block without data dispatches nothing", "event: x\nid: 3\n\n", [], lastEventID: "3"),
    Case(
      "a block without data resets the event type", "event: x\n\ndata: y\n\n", [.init(data: "y")]),
    Case("an unfinished event is dropped", "data: x\n\ndata: y\n", [.init(data: "x")]),
    Case("unknown fields are ignored", "foo: bar\nDATA: no\ndata: x\n\n", [.init(data: "x")]),
    Case(
      "retry with digits sets the delay", "retry: 1500\ndata: x\n\n", [.init(data: "x", retry: 1.5)], delay: 1500),
    Case("retry 0 is a delay", "retry: 0\n\n", [], delay: 0),
    Case(
      "retry with anything but digits is ignored",
      "retry: 1.5\nretry: -5\nretry: +5\nretry: 15x\nretry:  10\nretry:\nretry: 1e3\ndata: x\n\n",
      [.init(data: "x")]),
    Case(
      "the last valid retry wins and is remembered", "retry: 100\ndata: a\n\nretry: x\ndata: b\n\n",
      [.init(data: "a", retry: 0.1), .init(data: "b")], delay: 100),
    Case("multi-byte characters", "data: привет, é, 🚀\n\n", [.init(data: "привет, é, 🚀")]),
  ]

  static func parse(_ chunks: [ArraySlice<UInt8>]) throws -> (events: [ServerEvent], parser: EventStreamParser) {
    var parser = EventStreamParser()
    var events: [ServerEvent] = []
    for chunk in chunks { events += try parser.parse(chunk).map(\.event) }
    return (events, parser)
  }

  @Test(arguments: cases)
  func wholeSplitAtEveryByteAndByteByByte(_ test: Case) throws {
    let bytes = test.input[...]
    var splits: [[ArraySlice<UInt8>]] = [[bytes], bytes.map { [$0][...] }]
    for index in 0...bytes.count {
      splits.append([bytes[..<index], bytes[index...]])
    }
    for chunks in splits {
      let (events, parser) = try Self.parse(chunks)
      #expect(events == test.events, "split into \(chunks.map(\.count))")
      #expect(parser.lastEventID == test.lastEventID)
      #expect(parser.reconnectionDelay == test.delay, "split into \(chunks.map(\.count))")
    }
  }

  @Test func invalidUTF8BytesAreReplaced() throws {
    var parser = EventStreamParser()
    let events = try parser.parse(Array("data: a".utf8) + [0xFF, 0xC3] + Array("b\n\n".utf8))
    #expect(events.map(\.event.data) == ["a\u{FFFD}\u{FFFD}b"])
  }

  @Test func eventsKnowTheLineTheirBlockStartedOn() throws {
    var parser = EventStreamParser()
    let events = try parser.parse(Array("\n: c\ndata: a\n\nid: 1\ndata: b\n\n\n\ndata: c\r\n\r\n".utf8))
    #expect(events.map(\.line) == [3, 5, 10])
  }

  @Test func aResetStartsANewStreamButKeepsTheIDAndDelay() throws {
    var parser = EventStreamParser()
    _ = try parser.parse(Array("retry: 250\nid: 4\ndata: a\n\ndata: unfinished\n".utf8))
    parser.reset()
    let events = try parser.parse(Array("\u{FEFF}data: b\n\n".utf8))
    #expect(events.map(\.event) == [ServerEvent(id: "4", data: "b")])
    #expect(events.map(\.line) == [1])
    #expect(parser.reconnectionDelay == 250)
  }

  @Test func aCRAtTheEndOfAChunkAndAnLFAtTheStartOfTheNextAreOneLineEnd() throws {
    var parser = EventStreamParser()
    var events = try parser.parse(Array("data: a\r".utf8))
    events += try parser.parse(Array("\ndata: b\r".utf8))
    events += try parser.parse(Array("\n\r".utf8))
    events += try parser.parse(Array("\n".utf8))
    #expect(events.map(\.event.data) == ["a\nb"])
  }

  @Test func aLineOverTheLimitThrowsInsteadOfGrowing() throws {
    var parser = EventStreamParser(maximumEventSize: 64)
    let error = #expect(throws: CourierError.self) {
      _ = try parser.parse(Array(repeating: UInt8(ascii: "x"), count: 65))
    }
    #expect(error?.kind == .decoding)
    #expect(error?.detail.contains("Line 1") == true)
  }

  @Test func dataOverTheLimitThrowsNamingTheEvent() throws {
    var parser = EventStreamParser(maximumEventSize: 64)
    let line = "data: " + String(repeating: "x", count: 40) + "\n"
    let error = #expect(throws: CourierError.self) {
      _ = try parser.parse(Array(("\n" + line + line).utf8))
    }
    #expect(error?.kind == .decoding)
    #expect(error?.detail.contains("line 2") == true)
  }
}
