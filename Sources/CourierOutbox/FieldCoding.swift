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
    // Bytes, not characters: a line break and a colon are single bytes in UTF-8, and walking graphemes costs more.
    for line in data.split(separator: UInt8(ascii: "\n")) {
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
        let name = HTTPField.Name(String(decoding: line[..<colon], as: UTF8.self))
      else {
        throw OutboxError(
          .corruptStore, "A stored header line is not a field: \(String(decoding: line.prefix(100), as: UTF8.self))")
      }
      var start = line.index(after: colon)
      if start < line.endIndex, line[start] == UInt8(ascii: " ") { start = line.index(after: start) }
      fields.append(HTTPField(name: name, value: String(decoding: line[start...], as: UTF8.self)))
    }
    return fields
  }
}
