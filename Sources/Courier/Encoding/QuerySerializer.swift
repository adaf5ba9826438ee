import Foundation

/// Writes a `QueryNode` tree out as ordered query items, applying the array, bool and date options.
/// Every invalid value is reported here, with its full coding path.
struct QuerySerializer {
  let options: URLQueryEncoder
  /// Whether `Data` and `MultipartFile` values may appear (multipart bodies); queries and forms reject them.
  var allowsBinary = false

  /// One step of the path to a value: the coding key for `EncodingError`, and how the step reads in a query.
  private struct Step {
    var key: QueryCodingKey
    var name: String
  }

  func items(for entries: [QueryNode.Entry]) throws -> [URLQueryItem] {
    try fields(for: entries).map { field in
      guard case .text(let text) = field.value else { return URLQueryItem(name: field.name, value: nil) }
      return URLQueryItem(name: field.name, value: text)
    }
  }

  /// The named values in order, text or (when `allowsBinary`) binary.
  func fields(for entries: [QueryNode.Entry]) throws -> [FormField] {
    var items: [FormField] = []
    for entry in entries {
      try write(entry.node, name: entry.name, path: [Step(key: entry.key, name: entry.name)], into: &items)
    }
    return items
  }

  private func write(_ node: QueryNode, name: String, path: [Step], into items: inout [FormField]) throws {
    switch node {
    case .null:
      return
    case .scalar(.binary(let binary)) where allowsBinary:
      items.append(FormField(name: name, value: .binary(binary)))
    case .scalar(let scalar):
      items.append(FormField(name: name, value: .text(try text(for: scalar, at: path))))
    case .object(let entries):
      for entry in entries {
        let step = Step(key: entry.key, name: entry.name)
        try write(entry.node, name: "\(name)[\(entry.name)]", path: path + [step], into: &items)
      }
    case .array(let elements):
      try writeArray(elements, name: name, path: path, into: &items)
    }
  }

  private func writeArray(
    _ elements: [QueryNode],
    name: String,
    path: [Step],
    into items: inout [FormField]
  ) throws {
    // nil elements are left out; the rest keep their original index for error paths.
    let present = elements.enumerated().filter { element in
      if case .null = element.element { return false }
      return true
    }
    switch options.arrayEncoding {
    case .indexed:
      for (position, element) in present.enumerated() {
        let elementPath = path + [Self.indexStep(element.offset)]
        try write(element.element, name: "\(name)[\(position)]", path: elementPath, into: &items)
      }
    case .brackets, .repeated:
      let elementName = options.arrayEncoding == .brackets ? name + "[]" : name
      for (offset, element) in present {
        let elementPath = path + [Self.indexStep(offset)]
        guard case .scalar(let scalar) = element else { throw nestedContainerError(element, at: elementPath) }
        if case .binary(let binary) = scalar, allowsBinary {
          items.append(FormField(name: elementName, value: .binary(binary)))
        } else {
          items.append(FormField(name: elementName, value: .text(try text(for: scalar, at: elementPath))))
        }
      }
    case .commaSeparated:
      let values = try scalarTexts(present, path: path)
      items.append(FormField(name: name, value: .text(values.joined(separator: ","))))
    case .json:
      let values = try scalarTexts(present, path: path)
      items.append(FormField(name: name, value: .text("[" + values.map(Self.jsonString).joined(separator: ",") + "]")))
    }
  }

  /// The texts of array elements that must all be scalars, as every strategy but `.indexed` requires.
  private func scalarTexts(_ elements: [(offset: Int, element: QueryNode)], path: [Step]) throws -> [String] {
    try elements.map { offset, element in
      let elementPath = path + [Self.indexStep(offset)]
      guard case .scalar(let scalar) = element else {
        throw nestedContainerError(element, at: elementPath)
      }
      return try text(for: scalar, at: elementPath)
    }
  }

  /// The text of a scalar written at the top level of a flat value, or `nil` when it cannot be written there (the
  /// caller then encodes through the tree, which reports the error with its path).
  func flatText(for scalar: QueryNode.Scalar) -> String? {
    try? text(for: scalar, at: [])
  }

  private static func indexStep(_ offset: Int) -> Step {
    Step(key: QueryCodingKey(intValue: offset), name: String(offset))
  }

  // MARK: - Scalars

  private func text(for scalar: QueryNode.Scalar, at path: [Step]) throws -> String {
    switch scalar {
    case .string(let string):
      return string
    case .int(let int):
      return String(int)
    case .uint(let uint):
      return String(uint)
    case .double(let double):
      guard double.isFinite else { throw nonFiniteError(double, type: "Double", at: path) }
      return double.description
    case .float(let float):
      guard float.isFinite else { throw nonFiniteError(float, type: "Float", at: path) }
      return float.description
    case .decimal(let decimal):
      guard !decimal.isNaN else {
        throw invalidValue(decimal, at: path, "Decimal.nan is not a number")
      }
      return decimal.description
    case .bool(let bool):
      if options.encodesBoolsAsNumbers { return bool ? "1" : "0" }
      return bool ? "true" : "false"
    case .date(let date):
      return try text(for: date, at: path)
    case .binary(let binary):
      throw invalidValue(
        binary.summary, at: path,
        allowsBinary
          ? "binary values cannot be joined into one field; use ArrayEncoding.brackets, .repeated or .indexed"
          : "\(binary.summary) can only be sent in a multipart body (body(multipart:)), not in a query or form")
    }
  }

  private func text(for date: Date, at path: [Step]) throws -> String {
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite else {
      throw invalidValue(date, at: path, "the date's timeIntervalSince1970 (\(seconds)) is not finite")
    }
    switch options.dateEncoding.base {
    case .iso8601(let fractionalSeconds):
      return Date.ISO8601FormatStyle(includingFractionalSeconds: fractionalSeconds).format(date)
    case .secondsSince1970:
      return Self.integerText(seconds) ?? seconds.description
    case .millisecondsSince1970:
      let milliseconds = (seconds * 1000).rounded()
      return Self.integerText(milliseconds) ?? milliseconds.description
    case .formatted(let formatter):
      return formatter.string(from: date)
    case .custom(let format, _):
      do {
        return try format(date)
      } catch {
        throw EncodingError.invalidValue(
          date,
          EncodingError.Context(
            codingPath: path.map(\.key),
            debugDescription: "\(Self.describe(path)) cannot be encoded: the custom date encoding threw \(error)",
            underlyingError: error
          )
        )
      }
    }
  }

  /// The decimal digits of an integral value that fits in `Int64`, such as `1714564800`; otherwise `nil`.
  private static func integerText(_ value: Double) -> String? {
    guard value.rounded(.towardZero) == value, let integer = Int64(exactly: value) else { return nil }
    return String(integer)
  }

  /// A JSON string literal: quotes, backslashes and control characters are escaped.
  static func jsonString(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{08}": result += "\\b"
      case "\u{0C}": result += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default:
        result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  // MARK: - Errors

  /// A path in query form, quoted: `"filters[tags][1]"`.
  private static func describe(_ path: [Step]) -> String {
    guard let first = path.first else { return "The top-level value" }
    return "\"" + first.name + path.dropFirst().map { "[\($0.name)]" }.joined() + "\""
  }

  private func invalidValue(_ value: Any, at path: [Step], _ problem: String) -> EncodingError {
    EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: path.map(\.key),
        debugDescription: "\(Self.describe(path)) cannot be encoded: \(problem)"
      )
    )
  }

  private func nonFiniteError(_ value: some FloatingPoint, type: String, at path: [Step]) -> EncodingError {
    invalidValue(value, at: path, "\(type) value \(value) is not a finite number, and a query has no way to write it")
  }

  private func nestedContainerError(_ element: QueryNode, at path: [Step]) -> EncodingError {
    let kind: String
    if case .array = element {
      kind = "arrays of arrays"
    } else {
      kind = "arrays of objects"
    }
    return invalidValue(
      element.queryValue,
      at: path,
      "\(kind) need ArrayEncoding.indexed, but this encoder uses .\(options.arrayEncoding)"
    )
  }
}
