import Foundation
import HTTPTypes

/// One header as the caller wrote it, checked when the request is built.
///
/// Unlike `HTTPField`, which silently turns invalid characters into spaces, an `HTTPHeader` keeps the value as
/// given, so that a value Courier will not send as written is rejected with
/// ``CourierError/Kind-swift.struct/invalidRequest`` instead of being sent altered: a value may hold visible ASCII,
/// spaces and tabs only. CR or LF (a header-injection attempt, or a token read with its newline), other control
/// characters and non-ASCII text (which transports encode differently) are refused, naming the header.
///
/// ```swift
/// let endpoint = Endpoint<User>.get("/users/me").header(.authorization(bearer: token))
/// ```
public struct HTTPHeader: Sendable, Hashable {
  /// The field name, e.g. `Content-Type`.
  public var name: String
  /// The field value, exactly as given.
  public var value: String

  /// Creates a header from a name and a value.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }

  /// Creates a header from a typed field name and a value.
  public init(_ name: HTTPField.Name, _ value: String) {
    self.init(name.rawName, value)
  }

  /// The checked field: a valid token name and a value of visible ASCII, spaces and tabs.
  public func validated() throws -> HTTPField {
    guard let fieldName = HTTPField.Name(name) else {
      throw CourierError(.invalidRequest, "Header name \"\(name)\" is not a valid HTTP field name")
    }
    if let problem = Self.valueProblem(value, name: name) { throw problem }
    return HTTPField(name: fieldName, value: value)
  }

  /// Why `value` cannot be sent as the value of header `name`, or `nil` when it can: only visible ASCII, space and
  /// tab may stand in a value. The error names the header and the byte, never the value, which may be a secret.
  static func valueProblem(_ value: String, name: String) -> CourierError? {
    guard let offset = value.utf8.firstIndex(where: { !($0 == 0x09 || (0x20...0x7E).contains($0)) }) else {
      return nil
    }
    let byte = value.utf8[offset]
    let position = value.utf8.distance(from: value.utf8.startIndex, to: offset)
    let what =
      switch byte {
      case 0x0D, 0x0A: "CR or LF"
      case 0x00: "NUL"
      case 0x80...: "non-ASCII text"
      default: "a control character"
      }
    let hex = String(byte, radix: 16, uppercase: true)
    return CourierError(
      .invalidRequest,
      "Header \"\(name)\" contains \(what) (byte 0x\(hex.count == 1 ? "0" + hex : hex) at offset \(position)) and was "
        + "not sent; a header value may hold visible ASCII, spaces and tabs only")
  }
}

extension HTTPHeader {
  /// `Authorization: Bearer <token>`.
  public static func authorization(bearer token: String) -> HTTPHeader {
    HTTPHeader(.authorization, "Bearer \(token)")
  }

  /// `Authorization: Basic <base64(username:password)>`.
  public static func authorization(username: String, password: String) -> HTTPHeader {
    let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
    return HTTPHeader(.authorization, "Basic \(credentials)")
  }

  /// `Accept: <mediaType>`, e.g. `.accept("application/json")`.
  public static func accept(_ mediaType: String) -> HTTPHeader {
    HTTPHeader(.accept, mediaType)
  }

  /// `Content-Type: <mediaType>`, e.g. `.contentType("application/json")`.
  public static func contentType(_ mediaType: String) -> HTTPHeader {
    HTTPHeader(.contentType, mediaType)
  }

  /// `User-Agent: <value>`.
  public static func userAgent(_ value: String) -> HTTPHeader {
    HTTPHeader(.userAgent, value)
  }

  /// `Accept-Language` with descending q-values: `en-US;q=1.0, fr;q=0.9`.
  public static func acceptLanguage(_ languages: [String]) -> HTTPHeader {
    HTTPHeader(.acceptLanguage, qualityList(languages))
  }

  /// `Accept-Encoding` with descending q-values: `gzip;q=1.0, deflate;q=0.9`.
  public static func acceptEncoding(_ encodings: [String]) -> HTTPHeader {
    HTTPHeader(.acceptEncoding, qualityList(encodings))
  }

  /// Joins values with q-values that fall by 0.1 from 1.0 (at most ten values).
  static func qualityList(_ values: [String]) -> String {
    values.prefix(10).enumerated()
      .map { index, value in "\(value);q=\(index == 0 ? "1.0" : "0.\(10 - index)")" }
      .joined(separator: ", ")
  }
}
