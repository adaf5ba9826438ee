import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import CourierOutbox

/// How header fields are stored in an outbox row, and read back, including rows written before the line format.
@Suite(.hangGuard) struct FieldCodingTests {
  @Test func fieldsComeBackAsTheyWereInOrderWithRepeatsAndColons() throws {
    var fields = HTTPFields()
    fields.append(HTTPField(name: .contentType, value: "application/json; charset=utf-8"))
    fields.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: "a: b: c"))
    fields.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: "second"))
    fields.append(HTTPField(name: HTTPField.Name("X-Empty")!, value: ""))
    fields.append(HTTPField(name: HTTPField.Name("X-Unicode")!, value: "café ☕"))
    let stored = FieldCoding.encode(fields)
    #expect(String(decoding: stored, as: UTF8.self).hasPrefix("Content-Type: application/json; charset=utf-8\n"))
    let read = try FieldCoding.decode(stored)
    #expect(read == fields)
    #expect(read.map(\.name.rawName) == ["Content-Type", "X-Trace", "X-Trace", "X-Empty", "X-Unicode"])
  }

  @Test func aLineBreakInAValueCannotSplitAField() throws {
    // HTTPField turns a line break into a space, so a value cannot forge a second field.
    let fields: HTTPFields = [HTTPField.Name("X-Note")!: "one\nInjected: yes"]
    let read = try FieldCoding.decode(FieldCoding.encode(fields))
    #expect(read.count == 1)
    #expect(read[HTTPField.Name("Injected")!] == nil)
  }

  @Test func noFieldsAndNoColumnReadAsNone() throws {
    #expect(FieldCoding.encode(HTTPFields()).isEmpty, "no fields are stored as no bytes")
    #expect(try FieldCoding.decode(FieldCoding.encode(HTTPFields())).isEmpty)
    #expect(try FieldCoding.decode(nil).isEmpty)
    #expect(try FieldCoding.decode(Data()).isEmpty)
  }

  @Test func linesAreReadFromASliceWithoutAFinalLineBreakOrASpace() throws {
    // A column's bytes may be a slice of a larger buffer: offsets count from its start, not from zero.
    let buffer = Data("junk\nX-A:1\n\nX-B: two words\nX-C: three".utf8)
    let read = try FieldCoding.decode(buffer[buffer.index(buffer.startIndex, offsetBy: 5)...])
    #expect(read.map(\.name.rawName) == ["X-A", "X-B", "X-C"])
    #expect(read.map(\.value) == ["1", "two words", "three"])
  }

  @Test func rowsWrittenAsJSONPairsAreStillRead() throws {
    let legacy = Data(#"[["Content-Type","application/json"],["X-Trace","a: b"]]"#.utf8)
    let read = try FieldCoding.decode(legacy)
    #expect(read[.contentType] == "application/json")
    #expect(read[HTTPField.Name("X-Trace")!] == "a: b")
    #expect(try FieldCoding.decode(Data("[]".utf8)).isEmpty)
  }

  @Test func aDamagedValueIsATypedErrorNotAWrongField() {
    #expect {
      try FieldCoding.decode(Data("Content-Type application/json\n".utf8))
    } throws: { error in
      (error as? OutboxError)?.kind == .corruptStore
    }
    #expect {
      try FieldCoding.decode(Data("Bad Name: x\n".utf8))
    } throws: { error in
      (error as? OutboxError)?.kind == .corruptStore
    }
  }
}
