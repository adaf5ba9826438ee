import Foundation
import HTTPTypes

/// One header as the caller wrote it, checked when the request is built.
///
/// Unlike `HTTPField`, which silently turns invalid characters into spaces, an `HTTPHeader` keeps the value as
/// given, so that a value containing CR or LF (a header-injection attempt, or a token read with its newline) is
/// rejected with ``CourierError/Kind-swift.struct/invalidRequest`` instead of being sent altered.
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

  /// The checked field: a valid token name and a value without CR, LF or NUL.
  public func validated() throws -> HTTPField {
    guard let fieldName = HTTPField.Name(name) else {
      throw CourierError(.invalidRequest, "Header name \"\(name)\" is not a valid HTTP field name")
    }
    if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
      throw CourierError(.invalidRequest, "Header \"\(name)\" contains CR, LF or NUL and was not sent")
    }
    return HTTPField(name: fieldName, value: value)
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
