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
