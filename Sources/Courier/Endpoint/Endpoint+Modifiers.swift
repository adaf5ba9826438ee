import Foundation
import HTTPTypes

extension Endpoint {
  /// Returns a copy with `change` applied; every modifier is built on it.
  func with(_ change: (inout Endpoint) -> Void) -> Endpoint {
    var copy = self
    change(&copy)
    return copy
  }

  /// Sets the method: `Endpoint<Token>("auth/login").method(.post)`.
  public func method(_ method: HTTPRequest.Method) -> Endpoint {
    with { $0.method = method }
  }

  /// Sets a base URL for this endpoint only.
  public func baseURL(_ url: URL) -> Endpoint {
    with { $0.baseURL = url }
  }

  /// Sends this endpoint (method, headers, body, decoding, attributes) to `url` instead: a whole URL, whose query
  /// replaces the endpoint's query parameters. Use it for links a server hands out, such as the next page.
  ///
  /// ```swift
  /// let next = firstPage.url(URL(string: "https://api.example.com/v1/products?cursor=abc")!)
  /// ```
  public func url(_ url: URL) -> Endpoint {
    with { endpoint in
      endpoint.path = url.absoluteString
      endpoint.queryParts = []
    }
  }

  /// Appends hand-written query parameters, in order: `.query(["page": 2, "tags": ["a", "b"]])`.
  public func query(_ query: QueryParameters) -> Endpoint {
    guard !query.isEmpty else { return self }
    return with { $0.queryParts.append(.query(query)) }
  }

  /// Appends `URLQueryItem`s exactly as given; an item with a `nil` value is sent as its name alone.
  ///
  /// ```swift
  /// Endpoint<ProductPage>.get("/products").queryItems([URLQueryItem(name: "category", value: "books")])
  /// ```
  public func queryItems(_ items: [URLQueryItem]) -> Endpoint {
    guard !items.isEmpty else { return self }
    return with { $0.queryParts.append(.encodable { _ in items }) }
  }

  /// Appends one query parameter.
  public func query(_ name: String, _ value: QueryValue) -> Endpoint {
    query(QueryParameters([(name, value)]))
  }

  /// Appends one query parameter from a value held in a variable: a string, a number, a `Bool`, a `Date`, an
  /// array of these, or an optional (`nil` leaves the parameter out).
  ///
  /// ```swift
  /// Endpoint<[Product]>.get("/search").query("q", text).query("page", page)
  /// ```
  @_disfavoredOverload
  public func query(_ name: String, _ value: some QueryValueConvertible) -> Endpoint {
    query(QueryParameters([(name, value.queryValue)]))
  }

  /// Appends the query parameters of a keyed `Encodable` (a struct of filters), in declaration order.
  @_disfavoredOverload
  public func query(_ parameters: some Encodable & Sendable) -> Endpoint {
    with { $0.queryParts.append(.encodable { encoder in try encoder.encode(parameters) }) }
  }

  /// Adds a header; a later header of the same name replaces an earlier one and the client's default.
  public func header(_ name: HTTPField.Name, _ value: String) -> Endpoint {
    header(HTTPHeader(name, value))
  }

  /// Adds a header by name: `.header("X-Request-ID", id)`.
  public func header(_ name: String, _ value: String) -> Endpoint {
    header(HTTPHeader(name, value))
  }

  /// Adds a typed header: `.header(.authorization(bearer: token))`.
  public func header(_ header: HTTPHeader) -> Endpoint {
    with { $0.headers.append(header) }
  }

  /// Adds every field of `fields`.
  public func headers(_ fields: HTTPFields) -> Endpoint {
    with { endpoint in
      endpoint.headers += fields.map { HTTPHeader($0.name, $0.value) }
    }
  }

  /// Sets the body.
  public func body(_ payload: Payload) -> Endpoint {
    with { $0.body = payload }
  }

  /// Sets a JSON body, encoded with the endpoint's or the client's `JSONEncoder`.
  public func body(json value: some Encodable & Sendable) -> Endpoint {
    body(.json(value))
  }

  /// Sets an `application/x-www-form-urlencoded` body from a keyed `Encodable`.
  @_disfavoredOverload
  public func body(form value: some Encodable & Sendable) -> Endpoint {
    body(.form(value))
  }

  /// Sets an `application/x-www-form-urlencoded` body from an ordered ``QueryParameters``.
  public func body(form query: QueryParameters) -> Endpoint {
    body(.form(query))
  }

  /// Sets a `multipart/form-data` body encoded from a keyed `Encodable` (``MultipartFile`` properties become files).
  public func body(multipart value: some Encodable & Sendable) -> Endpoint {
    body(.multipart(value))
  }

  /// Sets raw bytes as the body.
  public func body(_ data: Data, contentType: String? = nil) -> Endpoint {
    body(.data(data, contentType: contentType))
  }

  /// Accepts only these statuses: `.expect(.created)`, `.expect(.ok, .notModified)`.
  public func expect(_ statuses: HTTPResponse.Status...) -> Endpoint {
    with { $0.acceptedStatuses = StatusCodeSet(statuses) }
  }

  /// Accepts a range of status codes: `.expect(200..<400)`.
  public func expect(_ codes: Range<Int>) -> Endpoint {
    with { $0.acceptedStatuses = StatusCodeSet(codes) }
  }

  /// Accepts every status, so the call never throws ``CourierError/Kind-swift.struct/unacceptableStatus``; read the
  /// status from the response.
  ///
  /// ```swift
  /// let raw = try await client.send(Endpoint<Data>.get("/moved").redirects(.none).expectAnyStatus())
  /// print(raw.status)   // 301
  /// ```
  public func expectAnyStatus() -> Endpoint {
    with { $0.acceptedStatuses = .any }
  }

  /// Sets this request's timeout in seconds.
  public func timeout(_ seconds: TimeInterval) -> Endpoint {
    with { $0.timeout = seconds }
  }

  /// Sets this request's timeout: `.timeout(.seconds(30))`.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public func timeout(_ duration: Duration) -> Endpoint {
    let (seconds, attoseconds) = duration.components
    return timeout(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
  }

  /// Fails the call with ``CourierError/Kind-swift.struct/timeout`` when `seconds` pass without a byte arriving
  /// (before the response head, or between chunks of the body), within its overall ``timeout(_:)-(TimeInterval)``.
  ///
  /// ```swift
  /// let feed = Endpoint<Data>.get("/export").timeout(600).idleTimeout(15)
  /// ```
  public func idleTimeout(_ seconds: TimeInterval) -> Endpoint {
    with { $0.idleTimeout = seconds }
  }

  /// The largest response body this call reads into memory, over the client's
  /// ``APIClient/Configuration/maxResponseBytes``; a larger one fails with
  /// ``CourierError/Kind-swift.struct/responseTooLarge``.
  public func maxResponseBytes(_ bytes: Int) -> Endpoint {
    with { $0.maxResponseBytes = bytes }
  }

  /// Sets the message a failure with `status` shows as ``CourierError/userMessage``.
  public func message(for status: HTTPResponse.Status, _ message: String) -> Endpoint {
    with { $0.statusMessages[status] = message }
  }

  /// Decodes this endpoint's responses with `decoder`.
  public func decoder(_ decoder: JSONDecoder) -> Endpoint {
    with { $0.decoder = decoder }
  }

  /// Encodes this endpoint's JSON body with `encoder`.
  public func encoder(_ encoder: JSONEncoder) -> Endpoint {
    with { $0.encoder = encoder }
  }

  /// Encodes this endpoint's query and form bodies with `encoder`.
  public func queryEncoder(_ encoder: URLQueryEncoder) -> Endpoint {
    with { $0.queryEncoder = encoder }
  }

  /// Decodes the body with your own function instead of JSON: `.decode { data, _, _ in try parseCSV(data) }`.
  public func decode(_ decode: @escaping @Sendable (Data, HTTPResponse, JSONDecoder) throws -> Value) -> Endpoint {
    with { $0.decodeBody = decode }
  }
}
