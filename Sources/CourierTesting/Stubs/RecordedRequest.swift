import Courier
import Foundation
import HTTPTypes

/// A request a ``StubTransport`` received, kept for assertions: the request head, the body bytes, the transport
/// options, and which stub answered it.
///
/// ```swift
/// let sent = try #require(transport.requests.last)
/// #expect(sent.method == .post)
/// #expect(sent.path == "/v1/posts")
/// #expect(sent.headerFields[.authorization] == "Bearer t0k")
/// #expect(try sent.decodeBody(as: NewPost.self) == NewPost(title: "Hello"))
/// ```
public struct RecordedRequest: Sendable {
  /// The request as the client sent it, with every header Courier and the interceptors added.
  public var request: HTTPRequest
  /// The body bytes, or `nil` when the request had no body.
  public var body: Data?
  /// The options the client handed to the transport, such as the timeout.
  public var options: TransportOptions
  /// The values of the matched stub's `:name` path parameters: `["id": "42"]` for `/users/:id`.
  public var pathParameters: [String: String]
  /// The matched stub's name or description, or `nil` when no stub matched.
  public var stub: String?

  /// Creates a record; ``StubTransport`` makes these for you.
  public init(
    request: HTTPRequest,
    body: Data?,
    options: TransportOptions = TransportOptions(),
    pathParameters: [String: String] = [:],
    stub: String? = nil
  ) {
    self.request = request
    self.body = body
    self.options = options
    self.pathParameters = pathParameters
    self.stub = stub
  }

  /// The request method.
  public var method: HTTPRequest.Method { request.method }
  /// The full URL.
  public var url: URL? { request.url }
  /// The header fields.
  public var headerFields: HTTPFields { request.headerFields }
  /// The percent-encoded path, without the query: `/v1/users/42`.
  public var path: String { RequestParts(request).path }
  /// The query items, decoded and in order; a name without `=` has a `nil` value.
  public var queryItems: [URLQueryItem] {
    RequestParts(request).query.map { URLQueryItem(name: $0.name, value: $0.value) }
  }
  /// The body as UTF-8 text, or `nil` when there is no body or it is not UTF-8.
  public var bodyText: String? { body.flatMap { String(data: $0, encoding: .utf8) } }

  /// The first value of the query item `name`.
  public func queryValue(_ name: String) -> String? {
    RequestParts(request).query.first { $0.name == name }?.value
  }

  /// Decodes the body as JSON: `try recorded.decodeBody(as: Credentials.self)`.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - decoder: The decoder; by default one with ISO 8601 dates, like the client's default encoder.
  /// - Throws: `DecodingError`, or `CourierError` when there is no body.
  public func decodeBody<T: Decodable>(as type: T.Type = T.self, decoder: JSONDecoder? = nil) throws -> T {
    guard let body else { throw CourierError(.decoding, "The request \(method) \(path) has no body") }
    let jsonDecoder = decoder ?? JSONDecoder()
    if decoder == nil { jsonDecoder.dateDecodingStrategy = .iso8601 }
    return try jsonDecoder.decode(type, from: body)
  }
}
