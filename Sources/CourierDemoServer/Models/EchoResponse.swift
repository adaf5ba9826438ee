#if canImport(Hummingbird)
/// What `/echo/**` answers: the request exactly as the server received it.
@available(macOS 14, iOS 17, tvOS 17, *)
struct EchoResponse: Encodable, Sendable, Equatable {
  /// The request method, e.g. `PUT`.
  var method: String
  /// The raw path, still percent-encoded.
  var path: String
  /// The raw query after `?`, or `nil` (JSON `null`) when the target had no `?`.
  var rawQuery: String?
  /// Decoded query pairs in order, each `[name, value]`.
  var query: [[String]]
  /// Every header in order, each `[name, value]`.
  var headers: [[String]]
  /// The body as UTF-8 text, or `nil` (JSON `null`) when it is not valid UTF-8.
  var body: String?
  /// The body in standard Base64.
  var bodyBase64: String
  /// The body's length in bytes.
  var bodyLength: Int

  private enum CodingKeys: String, CodingKey {
    case method, path, rawQuery, query, headers, body, bodyBase64, bodyLength
  }

  /// Encodes every key, writing `null` for a missing query or body rather than leaving the key out.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(method, forKey: .method)
    try container.encode(path, forKey: .path)
    try container.encode(rawQuery, forKey: .rawQuery)
    try container.encode(query, forKey: .query)
    try container.encode(headers, forKey: .headers)
    try container.encode(body, forKey: .body)
    try container.encode(bodyBase64, forKey: .bodyBase64)
    try container.encode(bodyLength, forKey: .bodyLength)
  }
}
#endif
