import Foundation
import HTTPTypes

extension Stub {
  /// Requires the query item `name`, with `value` when one is given: `.query("page", "2")`.
  public func query(_ name: String, _ value: String? = nil) -> Stub {
    with { $0.matcher.query.append(.init(name: name, value: value)) }
  }

  /// Requires every query item of `items`: `.query(["page": "2", "sort": "price"])`.
  public func query(_ items: KeyValuePairs<String, String>) -> Stub {
    items.reduce(self) { stub, item in stub.query(item.key, item.value) }
  }

  /// Requires the header `name` (compared case-insensitively), with `value` when one is given.
  ///
  /// ```swift
  /// .header("X-API-Key", "k")
  /// .header("Idempotency-Key")   // present, any value
  /// ```
  public func header(_ name: String, _ value: String? = nil) -> Stub {
    with { $0.matcher.headers.append(.init(name: name, value: value)) }
  }

  /// Requires the header `name`, with `value` when one is given: `.header(.authorization, "Bearer t0k")`.
  public func header(_ name: HTTPField.Name, _ value: String? = nil) -> Stub {
    header(name.rawName, value)
  }

  /// Requires the body to satisfy `predicate`; `description` names it in failure messages.
  ///
  /// ```swift
  /// .post("/login").body("a password") { String(decoding: $0, as: UTF8.self).contains("password=") }
  /// ```
  public func body(
    _ description: String = "the body predicate", where predicate: @escaping @Sendable (Data) -> Bool
  )
    -> Stub
  {
    with { $0.matcher.bodies.append(.init(description: description, test: predicate)) }
  }

  /// Requires a JSON body equal to `value` encoded as JSON (ISO 8601 dates unless you pass an encoder); key order
  /// and whitespace do not matter.
  public func body(json value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> Stub {
    let jsonEncoder = encoder ?? JSONEncoder()
    if encoder == nil { jsonEncoder.dateEncodingStrategy = .iso8601 }
    let expected = (try? jsonEncoder.encode(value)).flatMap(JSONText.canonical)
    let text = expected.map { String(decoding: $0, as: UTF8.self) } ?? "<not encodable>"
    return body("the JSON \(text)") { data in
      expected != nil && JSONText.canonical(data) == expected
    }
  }

  /// Requires a UTF-8 body that contains `text`.
  public func body(containing text: String) -> Stub {
    body("text containing \"\(text)\"") { data in
      String(data: data, encoding: .utf8)?.contains(text) == true
    }
  }
}
