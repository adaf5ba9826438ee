import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
  /// The `URLRequest` for `request`: one pass over the header fields into the dictionary URLSession takes, repeated
  /// fields joined with `", "` (`"; "` for `Cookie`), values in ISO Latin-1 as URLSession expects them. `timeout` is
  /// URLSession's own (``TransportOptions/engineTimeout``).
  package static func urlRequest(for request: HTTPRequest, timeout: TimeInterval) -> URLRequest? {
    guard let url = request.url else { return nil }
    var urlRequest = URLRequest(url: url)
    // Set on its own: FoundationNetworking ignores the initializer's `timeoutInterval`.
    urlRequest.timeoutInterval = timeout
    if request.method != .get { urlRequest.httpMethod = request.method.rawValue }
    // Cookies are Courier's (``CookieJar``); a session passed in by the app must not add its own.
    urlRequest.httpShouldHandleCookies = false
    var fields = [String: String](minimumCapacity: request.headerFields.count)
    for field in request.headerFields {
      let value = field.latin1Value
      if let existing = fields[field.name.rawName] {
        fields[field.name.rawName] = existing + (field.name == .cookie ? "; " : ", ") + value
      } else {
        fields[field.name.rawName] = value
      }
    }
    urlRequest.allHTTPHeaderFields = fields
    return urlRequest
  }

  /// The response head of `urlResponse`, or a typed error when it is not HTTP. Names servers send on almost every
  /// response skip validation; a name that is not a valid HTTP token is left out.
  package static func head(of urlResponse: URLResponse, request: HTTPRequest) throws -> HTTPResponse {
    guard let http = urlResponse as? HTTPURLResponse, (0...999).contains(http.statusCode) else {
      throw CourierError(.transport, "The server's response is not an HTTP response", request: request)
    }
    let headers = http.allHeaderFields
    var fields = HTTPFields()
    fields.reserveCapacity(headers.count)
    for (key, value) in headers {
      // Cast the keys' and values' contents: casting `AnyHashable` itself takes the runtime's slow path.
      guard let name = key.base as? String, let value = value as? String,
        let fieldName = HTTPField.Name.common(name) ?? HTTPField.Name(name)
      else { continue }
      fields.append(HTTPField(name: fieldName, latin1Value: value))
    }
    return HTTPResponse(status: HTTPResponse.Status(code: http.statusCode), headerFields: fields)
  }
}

extension HTTPField {
  /// A field whose value URLSession gave as ISO Latin-1 text (its characters are bytes).
  init(name: Name, latin1Value: String) {
    if latin1Value.utf8.allSatisfy({ $0 < 0x80 }) {
      self.init(name: name, value: latin1Value)
    } else {
      let bytes = latin1Value.unicodeScalars.map { $0.value > 0xFF ? 0x20 : UInt8(truncatingIfNeeded: $0.value) }
      self.init(name: name, value: bytes)
    }
  }

  /// The value as ISO Latin-1 text (each byte one character), as URLSession expects header values.
  var latin1Value: String {
    if value.utf8.allSatisfy({ $0 < 0x80 }) { return value }
    return withUnsafeBytesOfValue { bytes in
      var text = ""
      text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
      return text
    }
  }
}
