import AsyncHTTPClient
import HTTPTypes

extension HTTPResponse {
  /// The response head of an AsyncHTTPClient response: status, reason phrase and header fields in order.
  ///
  /// A field whose name is not a valid HTTP token cannot be represented and is left out, as URLSession does.
  init(_ response: HTTPClientResponse) {
    var fields = HTTPFields()
    fields.reserveCapacity(response.headers.count)
    for (name, value) in response.headers {
      guard let fieldName = HTTPField.Name.common(name) ?? HTTPField.Name(name) else { continue }
      fields.append(HTTPField(name: fieldName, value: value))
    }
    self.init(
      status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
      headerFields: fields)
  }
}
