import Foundation
import HTTPTypes

/// Header fields as stored: a line `name: value` each, in order. A value never holds a line break or a NUL (`HTTPField`
/// turns them into spaces) and a name never holds a colon, so the lines read back as they were written. Rows written
/// before the store's third version hold a JSON array of `[name, value]` pairs, still read. No fields are no bytes. Both
/// stores (SQLite and PostgreSQL) write their rows' fields with it.
package enum FieldCoding {
  package static func encode(_ fields: HTTPFields) -> Data {
    guard !fields.isEmpty else { return Data() }
    var text = ""
    for field in fields {
      text += field.name.rawName
      text += ": "
      text += field.value
      text += "\n"
    }
    return Data(text.utf8)
  }

  package static func decode(_ data: Data?) throws -> HTTPFields {
    guard let data, let first = data.first else { return HTTPFields() }
    var fields = HTTPFields()
    if first == UInt8(ascii: "[") {
      guard data.count > 2 else { return fields }
      for pair in try JSONDecoder().decode([[String]].self, from: data) where pair.count == 2 {
        if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
      }
      return fields
    }
    return try data.withUnsafeBytes(fields(ofLines:))
  }

  /// The fields of stored lines. Bytes, not characters: a line break and a colon are single bytes in UTF-8, and
  /// walking graphemes, or `Data`'s own indices, costs many times more.
  private static func fields(ofLines bytes: UnsafeRawBufferPointer) throws -> HTTPFields {
    var fields = HTTPFields()
    var lineStart = 0
    while lineStart < bytes.count {
      var lineEnd = lineStart
      var colon: Int?
      while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") {
        if colon == nil, bytes[lineEnd] == UInt8(ascii: ":") { colon = lineEnd }
        lineEnd += 1
      }
      defer { lineStart = lineEnd + 1 }
      guard lineEnd > lineStart else { continue }
      guard let colon, let name = HTTPField.Name(text(bytes, lineStart..<colon)) else {
        let shown = text(bytes, lineStart..<min(lineEnd, lineStart + 100))
        throw OutboxError(.corruptStore, "A stored header line is not a field: \(shown)")
      }
      var valueStart = colon + 1
      if valueStart < lineEnd, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
      fields.append(HTTPField(name: name, value: text(bytes, valueStart..<lineEnd)))
    }
    return fields
  }

  private static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}
