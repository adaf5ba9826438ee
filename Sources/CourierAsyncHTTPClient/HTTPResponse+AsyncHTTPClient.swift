import AsyncHTTPClient
import HTTPTypes

extension HTTPResponse {
  /// The response head of an AsyncHTTPClient response: status, reason phrase and header fields in order.
  ///
  /// A field whose name is not a valid HTTP token cannot be represented and is left out, as URLSession does.
  init(_ response: HTTPClientResponse) {
    var fields: [HTTPField] = []
    fields.reserveCapacity(response.headers.count)
    for (name, value) in response.headers {
      guard let fieldName = HTTPField.Name.common[name] ?? HTTPField.Name(name) else { continue }
      fields.append(HTTPField(name: fieldName, value: value))
    }
    self.init(
      status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
      headerFields: HTTPFields(fields))
  }
}

extension HTTPField.Name {
  /// Names servers send on almost every response, keyed by their usual spelling (`Content-Length`), so the common
  /// case skips validating and lowercasing each name; any other spelling takes the validating initializer and keeps
  /// its own spelling.
  static let common: [String: HTTPField.Name] = {
    let names: [HTTPField.Name] = [
      .acceptRanges, .age, .cacheControl, .connection, .contentEncoding, .contentLength, .contentType, .date, .eTag,
      .expires, .lastModified, .location, .server, .setCookie, .transferEncoding, .vary,
    ]
    var table: [String: HTTPField.Name] = [:]
    for name in names + [HTTPField.Name("Keep-Alive")].compactMap({ $0 }) {
      table[name.rawName] = name
    }
    return table
  }()
}
