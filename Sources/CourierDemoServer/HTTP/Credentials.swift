#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// Reads credentials from `Authorization` headers and form bodies.
@available(macOS 14, iOS 17, tvOS 17, *)
enum Credentials {
  /// The token of an `Authorization: Bearer <token>` header, if present.
  static func bearerToken(in request: Request) -> String? {
    guard let (scheme, value) = authorization(request), scheme == "bearer", !value.isEmpty else { return nil }
    return value
  }

  /// `email:password` from `Authorization: Basic …`; `nil` without a Basic header, 400 when it is malformed.
  static func basic(in request: Request) throws -> (email: String, password: String)? {
    guard let (scheme, value) = authorization(request), scheme == "basic" else { return nil }
    guard let data = Data(base64Encoded: value), let decoded = String(data: data, encoding: .utf8),
      let colon = decoded.firstIndex(of: ":")
    else {
      throw APIError(
        status: .badRequest,
        code: "invalid_authorization",
        message: "Basic credentials must be base64(email:password)"
      )
    }
    return (String(decoded[..<colon]), String(decoded[decoded.index(after: colon)...]))
  }

  /// `email` and `password` from an `application/x-www-form-urlencoded` body.
  static func form(_ body: ByteBuffer) throws -> (email: String, password: String) {
    let text = String(decoding: body.readableBytesView, as: UTF8.self)
    var fields: [String: String] = [:]
    for part in text.split(separator: "&") {
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = PercentDecoding.decodeForm(pieces[0])
      if fields[name] == nil {
        fields[name] = pieces.count > 1 ? PercentDecoding.decodeForm(pieces[1]) : ""
      }
    }
    guard let email = fields["email"] else { throw APIError.invalidBody("Missing field 'email'") }
    guard let password = fields["password"] else { throw APIError.invalidBody("Missing field 'password'") }
    return (email, password)
  }

  /// The lower-cased scheme and the trimmed credentials of the `Authorization` header.
  private static func authorization(_ request: Request) -> (scheme: String, value: String)? {
    guard let header = request.headers[.authorization] else { return nil }
    let trimmed = header.trimmingCharacters(in: .whitespaces)
    guard let space = trimmed.firstIndex(of: " ") else { return (trimmed.lowercased(), "") }
    let value = trimmed[trimmed.index(after: space)...].trimmingCharacters(in: .whitespaces)
    return (trimmed[..<space].lowercased(), value)
  }
}
#endif
