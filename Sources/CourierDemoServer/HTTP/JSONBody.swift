#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// Reads and decodes JSON request bodies, turning every failure into a 400 ``APIError``.
@available(macOS 14, iOS 17, tvOS 17, *)
enum JSONBody {
  /// The largest request body the JSON routes accept.
  static let maxSize = 1 << 20

  /// Collects the body of `request` (at most ``maxSize`` bytes).
  static func bytes(of request: Request) async throws -> ByteBuffer {
    var request = request
    return try await request.collectBody(upTo: maxSize)
  }

  /// Decodes the request body as `type`.
  static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
    try decode(type, from: try await bytes(of: request))
  }

  /// Decodes `buffer` as `type`, mapping decoding errors to `invalid_json` / `invalid_body`.
  static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
    let data = Data(buffer.readableBytesView)
    guard !data.isEmpty else {
      throw APIError.invalidJSON("Request body is empty; expected a JSON object")
    }
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch let error as DecodingError {
      throw map(error)
    } catch {
      throw APIError.invalidJSON("Request body is not valid JSON")
    }
  }

  /// Describes a `DecodingError` in terms of the JSON the client sent.
  static func map(_ error: DecodingError) -> APIError {
    switch error {
    case .keyNotFound(let key, let context):
      return .invalidBody("Missing field '\(path(context.codingPath + [key]))'")
    case .typeMismatch(let type, let context):
      if context.codingPath.isEmpty {
        return .invalidBody("Request body must be a JSON object")
      }
      return .invalidBody("Field '\(path(context.codingPath))' must be \(describe(type))")
    case .valueNotFound(let type, let context):
      if context.codingPath.isEmpty {
        return .invalidBody("Request body must be a JSON object")
      }
      return .invalidBody("Field '\(path(context.codingPath))' must be \(describe(type)), not null")
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty {
        return .invalidJSON("Request body is not valid JSON")
      }
      return .invalidBody("Field '\(path(context.codingPath))' has an invalid value")
    @unknown default:
      return .invalidJSON("Request body is not valid JSON")
    }
  }

  private static func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Bool.Type: return "a boolean"
    case is Int.Type, is Double.Type: return "a number"
    default: return "of type \(type)"
    }
  }
}
#endif
