import Foundation

extension Endpoint {
  /// Decodes `Value` from under a key of the body instead of from the whole body.
  ///
  /// Servers often wrap what you want in an envelope. Name the key, or a dotted path to it:
  ///
  /// ```swift
  /// // {"items": [{"id": 1, ...}], "total": 12, "page": 1}
  /// let products = try await client.value(Endpoint<[Product]>.get("/products").unwrapping("items"))
  /// // {"data": {"user": {...}}}
  /// let user = try await client.value(Endpoint<User>.get("/me").unwrapping("data.user"))
  /// ```
  ///
  /// The endpoint's decoder and date strategies still apply, and a decoding error names the full path
  /// (`items[3].price`).
  public func unwrapping(_ keyPath: String) -> Endpoint {
    let keys = keyPath.split(separator: ".").map(String.init)
    return decode { data, _, decoder in
      let unwrapping = decoder.copy()
      unwrapping.userInfo[.courierUnwrapPath] = keys
      return try unwrapping.decode(Unwrapped<Value>.self, from: data).value
    }
  }
}

extension CodingUserInfoKey {
  /// The keys ``Unwrapped`` walks down.
  static let courierUnwrapPath = CodingUserInfoKey(rawValue: "courier.unwrapPath")!
}

/// Decodes a value from under the keys in the decoder's `userInfo`.
struct Unwrapped<Value: Decodable>: Decodable {
  let value: Value

  init(from decoder: any Decoder) throws {
    let keys = (decoder.userInfo[.courierUnwrapPath] as? [String] ?? []).map(UnwrapKey.init)
    guard let last = keys.last else {
      value = try Value(from: decoder)
      return
    }
    var container = try decoder.container(keyedBy: UnwrapKey.self)
    for key in keys.dropLast() {
      container = try container.nestedContainer(keyedBy: UnwrapKey.self, forKey: key)
    }
    value = try container.decode(Value.self, forKey: last)
  }
}

/// A key of the path ``Unwrapped`` walks down (outside the generic type, so that no closure captures its metatype).
private struct UnwrapKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
