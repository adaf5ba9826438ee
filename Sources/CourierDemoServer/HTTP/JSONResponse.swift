#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// Builds responses with JSON bodies.
@available(macOS 14, iOS 17, tvOS 17, *)
enum JSONResponse {
  /// The content type of every JSON body the server sends.
  static let contentType = "application/json; charset=utf-8"

  /// An encoder with ISO 8601 dates (`2024-01-15T09:30:00Z`) and stable key order.
  static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// A response whose body is `value` encoded as JSON.
  static func make(
    _ value: some Encodable,
    status: HTTPResponse.Status = .ok,
    headers: HTTPFields = [:]
  ) throws -> Response {
    let data = try makeEncoder().encode(value)
    return raw(data, status: status, headers: headers)
  }

  /// A response with already-encoded JSON bytes (used for deliberately broken JSON too).
  static func raw(
    _ bytes: some Sequence<UInt8>,
    status: HTTPResponse.Status = .ok,
    headers: HTTPFields = [:]
  ) -> Response {
    var headers = headers
    headers[.contentType] = contentType
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }

  /// The JSON error response for `error`.
  static func error(_ error: APIError) -> Response {
    do {
      return try make(error.body, status: error.status, headers: error.headers)
    } catch {
      let fallback = #"{"code":"internal_error","error":"Could not encode error"}"#
      return raw(Array(fallback.utf8), status: .internalServerError)
    }
  }

  /// An empty response, e.g. `204 No Content`.
  static func empty(status: HTTPResponse.Status = .noContent, headers: HTTPFields = [:]) -> Response {
    Response(status: status, headers: headers)
  }
}
#endif
