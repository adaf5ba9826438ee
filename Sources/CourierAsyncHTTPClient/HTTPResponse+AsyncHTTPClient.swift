import AsyncHTTPClient
import HTTPTypes

extension HTTPResponse {
  /// The response head of an AsyncHTTPClient response: status, reason phrase and header fields in order.
  ///
  /// A field whose name is not a valid HTTP token cannot be represented and is left out, as URLSession does.
  init(_ response: HTTPClientResponse) {
    var list: [HTTPField] = []
    list.reserveCapacity(response.headers.count)
    for (name, value) in response.headers {
      guard let fieldName = HTTPField.Name.common(name) ?? HTTPField.Name(name) else { continue }
      list.append(HTTPField(name: fieldName, value: value))
    }
    var fields = HTTPFields()
    fields.reserveCapacity(list.count)
    fields.append(contentsOf: list)
    self.init(
      status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
      headerFields: fields)
  }
}

extension HTTPField.Name {
  /// The name for `name` when it is one servers send on almost every response in its usual spelling
  /// (`Content-Length`), so the common case skips validating and lowercasing each name; any other spelling takes
  /// the validating initializer and keeps its own spelling. A linear scan: these names are small strings, compared
  /// a word at a time, which beats hashing them.
  static func common(_ name: String) -> HTTPField.Name? {
    for known in commonNames where known.rawName == name { return known }
    return nil
  }

  private static let commonNames: [HTTPField.Name] = [
    .server, .date, .contentType, .contentLength, .lastModified, .connection, .eTag, .acceptRanges, .cacheControl,
    .expires, .vary, .contentEncoding, .age, .transferEncoding, .setCookie, .location, HTTPField.Name("Keep-Alive")!,
  ]
}
