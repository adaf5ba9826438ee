import Foundation
import HTTPTypes

/// Turns a response body into an endpoint's `Value`.
enum ResponseDecoding {
  static func decode<Value: Decodable>(
    _ type: Value.Type,
    data: Data,
    response: HTTPResponse,
    decoder: JSONDecoder,
    custom: (@Sendable (Data, HTTPResponse, JSONDecoder) throws -> Value)?
  ) throws -> Value {
    if let custom { return try custom(data, response, decoder) }
    // Metatype comparisons first: they cost a pointer compare, where a failed cast or conformance lookup costs
    // thousands of instructions on every decoded call.
    if Value.self == EmptyBody.self, let empty = EmptyBody() as? Value { return empty }
    if Value.self == Data.self, let raw = data as? Value { return raw }
    if Value.self == String.self {
      let encoding = textEncoding(of: response)
      guard let text = String(data: data, encoding: encoding) as? Value else {
        throw CourierError(.decoding, "The response body is not valid text in \(encoding)")
      }
      return text
    }
    if data.isEmpty {
      throw CourierError(
        .decoding, "The response body is empty but \(Value.self) was expected; use Endpoint<EmptyBody> for empty bodies"
      )
    }
    return try decoder.decode(Value.self, from: data)
  }

  /// The charset named in `Content-Type`, UTF-8 when none or unknown.
  static func textEncoding(of response: HTTPResponse) -> String.Encoding {
    let contentType = response.headerFields[.contentType]?.lowercased() ?? ""
    if contentType.contains("charset=iso-8859-1") || contentType.contains("charset=latin1") { return .isoLatin1 }
    if contentType.contains("charset=us-ascii") { return .ascii }
    return .utf8
  }

  static func failure<Value>(_ error: any Error, type: Value.Type, data: Data) -> CourierError {
    var failure: CourierError
    if let error = error as? CourierError {
      failure = error
    } else if let error = error as? DecodingError {
      let (path, reason) = describe(error)
      failure = CourierError(
        .decoding, "\(Value.self) could not be decoded at \(path.isEmpty ? "the top level" : path): \(reason)",
        underlyingError: error)
      failure.codingPath = path
    } else {
      failure = CourierError(.decoding, "\(Value.self) could not be decoded: \(error)", underlyingError: error)
    }
    failure.body = data
    return failure
  }

  static func describe(_ error: DecodingError) -> (path: String, reason: String) {
    switch error {
    case .typeMismatch(let type, let context):
      return (CodingPathFormatter.string(context.codingPath), "expected \(type): \(context.debugDescription)")
    case .valueNotFound(let type, let context):
      return (CodingPathFormatter.string(context.codingPath), "missing \(type) value: \(context.debugDescription)")
    case .keyNotFound(let key, let context):
      let path = CodingPathFormatter.string(context.codingPath + [key])
      return (path, "the key \"\(key.stringValue)\" is missing")
    case .dataCorrupted(let context):
      return (CodingPathFormatter.string(context.codingPath), context.debugDescription)
    @unknown default:
      return ("", "\(error)")
    }
  }
}

/// Renders a coding path the way people write it: `items[3].price`.
enum CodingPathFormatter {
  static func string(_ path: [any CodingKey]) -> String {
    var result = ""
    for key in path {
      if let index = key.intValue, key.stringValue.hasPrefix("Index") || key.stringValue == "\(index)" {
        result += "[\(index)]"
      } else {
        result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return result
  }
}
