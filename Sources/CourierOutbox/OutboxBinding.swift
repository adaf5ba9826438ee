import Foundation
import HTTPTypes

/// A value taken from the answer of the item an outbox item waits for, and put where the later item's request says
/// `{name}`: in its path, its query, its header values or its JSON body.
///
/// Create a post offline, then upload its picture to the id the server gives the post:
///
/// ```swift
/// let post = try await outbox.enqueue(Endpoint<Post>.post("/posts", body: draft), lane: "posts")
/// try await outbox.enqueue(
///   Endpoint<Data>.put("/posts/{id}/image", body: jpeg), lane: "posts", after: post,
///   bindings: [.json("id", at: "/id")])
/// ```
///
/// The values are written into the later item in the same transaction that records the earlier item's answer, so a
/// crash never leaves one without the other. In the path and the query a value is percent-encoded; in a JSON body a
/// string that is exactly `"{name}"` becomes the value with its JSON type (a number stays a number), and a string
/// that contains `{name}` gets the value's text. A value the answer does not hold makes the later item a dead letter
/// that says which binding failed; it is never sent with `{name}` in it.
public struct OutboxBinding: Sendable, Hashable, Codable {
  /// Where the value comes from in the earlier item's answer.
  public enum Source: Sendable, Hashable, Codable {
    /// The JSON body, at a JSON Pointer (RFC 6901): `/id`, `/data/0/id`; the empty pointer is the whole body.
    case json(pointer: String)
    /// A header's value, for example `Location`.
    case header(String)
  }

  /// The placeholder's name: the later request says `{name}`.
  public var name: String
  /// Where the value comes from.
  public var source: Source

  /// `{name}` gets the value at `pointer` in the earlier answer's JSON body.
  public static func json(_ name: String, at pointer: String) -> OutboxBinding {
    OutboxBinding(name: name, source: .json(pointer: pointer))
  }

  /// `{name}` gets the value of the earlier answer's header `field`.
  public static func header(_ name: String, from field: String) -> OutboxBinding {
    OutboxBinding(name: name, source: .header(field))
  }

  /// A binding of `name` to `source`.
  public init(name: String, source: Source) {
    self.name = name
    self.source = source
  }
}

/// A bound value: what the answer held at the binding's source.
enum BoundValue {
  case string(String)
  /// Any other JSON value (a number, a Boolean, null, an array, an object), as the object JSONSerialization reads.
  case json(Any)

  /// The value as text: a string as it is, another JSON value as JSON.
  var text: String {
    switch self {
    case .string(let string):
      return string
    case .json(let value):
      let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
      return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
  }

  var jsonObject: Any {
    switch self {
    case .string(let string): return string
    case .json(let value): return value
    }
  }
}

extension OutboxBinding {
  /// Checks what an enqueue is given: names a request can say, sources that can be read.
  static func validate(
    _ bindings: [OutboxBinding], after: OutboxItem.ID?, constraints: OutboxConstraints
  ) throws {
    guard !bindings.isEmpty else { return }
    guard after != nil else {
      throw OutboxError(.invalidRequest, "Bindings take values from the answer of an earlier item: give `after:`")
    }
    guard constraints.ifDependencyFails == .cancel else {
      throw OutboxError(
        .invalidRequest,
        "An item that binds values from an earlier item's answer cannot proceed without that answer: "
          + "its ifDependencyFails must be .cancel")
    }
    var names = Set<String>()
    for binding in bindings {
      guard !binding.name.isEmpty, binding.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
      else {
        throw OutboxError(
          .invalidRequest,
          "The binding name \"\(binding.name)\" must be letters, digits, \"_\" or \"-\" (the request says {name})")
      }
      guard names.insert(binding.name).inserted else {
        throw OutboxError(.invalidRequest, "The binding name \"\(binding.name)\" is given twice")
      }
      switch binding.source {
      case .json(let pointer):
        guard pointer.isEmpty || pointer.hasPrefix("/") else {
          throw OutboxError(
            .invalidRequest, "The JSON Pointer \"\(pointer)\" of {\(binding.name)} must be empty or start with \"/\"")
        }
      case .header(let field):
        guard HTTPField.Name(field) != nil else {
          throw OutboxError(.invalidRequest, "\"\(field)\" of {\(binding.name)} is not a header name")
        }
      }
    }
  }

  /// `request` with every `{name}` of `bindings` replaced by its value in `response`; throws a
  /// ``OutboxError/Kind/bindingFailed`` error naming the binding whose value the answer does not hold.
  package static func apply(
    _ bindings: [OutboxBinding], from response: RecordedResponse, dependency: OutboxItem.ID, to request: StoredRequest
  ) throws -> StoredRequest {
    guard !bindings.isEmpty else { return request }
    var values: [String: BoundValue] = [:]
    var document: Any??
    for binding in bindings {
      switch binding.source {
      case .header(let field):
        guard let name = HTTPField.Name(field), let value = response.headerFields[name] else {
          throw OutboxError(
            .bindingFailed, "{\(binding.name)}: the answer to item \(dependency) has no \(field) header")
        }
        values[binding.name] = .string(value)
      case .json(let pointer):
        if document == nil {
          document = .some(try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed]))
        }
        guard let body = document ?? nil else {
          throw OutboxError(.bindingFailed, "{\(binding.name)}: the answer to item \(dependency) is not JSON")
        }
        guard let value = resolve(pointer, in: body) else {
          throw OutboxError(
            .bindingFailed,
            "{\(binding.name)}: the answer to item \(dependency) has nothing at the JSON Pointer \(pointer)")
        }
        if let string = value as? String {
          values[binding.name] = .string(string)
        } else {
          values[binding.name] = .json(value)
        }
      }
    }
    var bound = request
    bound.target = substituteInTarget(request.target, values)
    var fields = HTTPFields()
    for field in request.headerFields {
      let value = substitute(field.value, values) { $0.text }
      // A value that cannot be a header value (a line break) is refused rather than sent cut.
      guard !value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
        throw OutboxError(.bindingFailed, "A bound value in the \(field.name) header holds a line break")
      }
      fields.append(HTTPField(name: field.name, value: value))
    }
    bound.headerFields = fields
    if let body = request.body, let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
      let replaced = substituteInJSON(json, values)
      if let data = try? JSONSerialization.data(withJSONObject: replaced, options: [.fragmentsAllowed]) {
        bound.body = data
        bound.bodyLength = data.count
        bound.bodyDigest = StoredRequest.digest(of: data)
      }
    }
    return bound
  }

  /// The value at an RFC 6901 JSON Pointer.
  static func resolve(_ pointer: String, in document: Any) -> Any? {
    guard !pointer.isEmpty else { return document }
    var current: Any = document
    for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      if let object = current as? [String: Any] {
        guard let next = object[key] else { return nil }
        current = next
      } else if let array = current as? [Any] {
        guard let index = Int(key), index >= 0, index < array.count, String(index) == key else { return nil }
        current = array[index]
      } else {
        return nil
      }
    }
    return current
  }

  /// The target with `{name}` (also percent-encoded as `%7Bname%7D`) replaced by the percent-encoded value.
  static func substituteInTarget(_ target: String, _ values: [String: BoundValue]) -> String {
    let queryStart = target.firstIndex(of: "?") ?? target.endIndex
    let path = String(target[..<queryStart])
    let query = String(target[queryStart...])
    func encoded(_ text: String, allowed: CharacterSet) -> String {
      text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
    var pathAllowed = CharacterSet.urlPathAllowed
    pathAllowed.remove("/")
    var queryAllowed = CharacterSet.urlQueryAllowed
    queryAllowed.remove(charactersIn: "&=+?#")
    return substitute(path, values) { encoded($0.text, allowed: pathAllowed) }
      + substitute(query, values) { encoded($0.text, allowed: queryAllowed) }
  }

  /// `text` with each `{name}` — and its percent-encoded forms — replaced by `render` of the value.
  static func substitute(_ text: String, _ values: [String: BoundValue], render: (BoundValue) -> String) -> String {
    guard text.contains("{") || text.contains("%7") else { return text }
    var result = text
    for (name, value) in values {
      let rendered = render(value)
      for placeholder in ["{\(name)}", "%7B\(name)%7D", "%7b\(name)%7d"] {
        result = result.replacingOccurrences(of: placeholder, with: rendered)
      }
    }
    return result
  }

  static func substituteInJSON(_ json: Any, _ values: [String: BoundValue]) -> Any {
    switch json {
    case let string as String:
      if string.first == "{", string.last == "}", let value = values[String(string.dropFirst().dropLast())] {
        return value.jsonObject
      }
      return substitute(string, values) { $0.text }
    case let array as [Any]:
      return array.map { substituteInJSON($0, values) }
    case let object as [String: Any]:
      return object.mapValues { substituteInJSON($0, values) }
    default:
      return json
    }
  }
}
