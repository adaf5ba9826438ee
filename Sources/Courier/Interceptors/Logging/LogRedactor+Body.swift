import Foundation

extension LogRedactor {
  /// How a body's text is read for redaction.
  enum BodyFormat: Equatable {
    case json, form, text

    /// The format named by `contentType`; without one, text that starts like JSON is taken as JSON.
    init(contentType: String?, text: some StringProtocol) {
      if let contentType {
        let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        switch mediaType {
        case "application/json"?, "text/json"?: self = .json
        case let type? where type.hasSuffix("+json"): self = .json
        case "application/x-www-form-urlencoded"?: self = .form
        default: self = .text
        }
      } else if let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "[" {
        self = .json
      } else {
        self = .text
      }
    }
  }

  /// A body's text with the values of redacted fields hidden.
  ///
  /// - Parameter isComplete: `false` when `text` is only the start of the body; JSON is then redacted textually,
  ///   since the cut text does not parse.
  package func body(_ text: String, contentType: String?, isComplete: Bool = true) -> String {
    switch BodyFormat(contentType: contentType, text: text) {
    case .json:
      if isComplete, let redacted = parsedJSON(text) { return redacted }
      return JSONTextRedactor(fields: bodyFields, placeholder: placeholder).redact(text)
    case .form:
      return urlEncoded(text, hiding: bodyFields)
    case .text:
      return text
    }
  }

  /// Parses `text` with `JSONSerialization` and hides the named fields at any depth; `nil` when it does not parse.
  ///
  /// Text without a redacted field is returned unchanged, so numbers keep the exact form they were sent in; text
  /// with one is re-serialized with sorted keys.
  func parsedJSON(_ text: String) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
      return nil
    }
    var changed = false
    let redacted = redactJSON(object, changed: &changed)
    guard changed else { return text }
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: redacted, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  private func redactJSON(_ value: Any, changed: inout Bool) -> Any {
    if let object = value as? [String: Any] {
      var result: [String: Any] = [:]
      for (key, member) in object {
        if bodyFields.contains(key.lowercased()) {
          result[key] = placeholder
          changed = true
        } else {
          result[key] = redactJSON(member, changed: &changed)
        }
      }
      return result
    }
    if let array = value as? [Any] {
      return array.map { redactJSON($0, changed: &changed) }
    }
    return value
  }
}
