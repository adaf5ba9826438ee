import Foundation
import HTTPTypes

extension APIClient {
  /// Sends `endpoint` and returns the decoded response.
  ///
  /// - Throws: ``CourierError`` and nothing else. Cancelling the calling task cancels the transfer and throws an
  ///   error whose ``CourierError/isCancellation`` is true.
  @discardableResult
  public func send<Value>(_ endpoint: Endpoint<Value>) async throws -> APIResponse<Value> {
    try await send(endpoint, progress: TransferReporters(endpoint))
  }

  func send<Value>(_ endpoint: Endpoint<Value>, progress: TransferReporters?) async throws -> APIResponse<Value> {
    let call = Call(client: self, endpoint: endpoint, progress: progress, incremental: false)
    return try await call.run { [self] request, response, body in
      let data = try await call.collect(body)
      let value = try decode(endpoint, request: request, response: response, data: data)
      let result = APIResponse(
        value: value, data: data, response: response, request: request, cacheStatus: CacheStatus(response),
        redirects: call.context.events.redirects)
      return (result, Int64(data.count))
    }
  }

  /// Sends `endpoint` and returns only the decoded value.
  ///
  /// The same call as ``send(_:)``, without making the ``APIResponse``.
  @discardableResult
  public func value<Value>(_ endpoint: Endpoint<Value>) async throws -> Value {
    let call = Call(client: self, endpoint: endpoint, progress: TransferReporters(endpoint), incremental: false)
    return try await call.run { [self] request, response, body in
      let data = try await call.collect(body)
      return (try decode(endpoint, request: request, response: response, data: data), Int64(data.count))
    }
  }

  /// Sends a value of an ``EndpointConvertible`` type, decoding the body as `type`.
  @discardableResult
  public func send<Value: Decodable & Sendable>(
    _ target: some EndpointConvertible,
    as type: Value.Type = Value.self
  ) async throws -> APIResponse<Value> {
    try await send(target.endpoint(as: type))
  }

  /// Sends a value of an ``EndpointConvertible`` type and returns only the decoded value.
  @discardableResult
  public func value<Value: Decodable & Sendable>(
    _ target: some EndpointConvertible,
    as type: Value.Type = Value.self
  ) async throws -> Value {
    try await send(target.endpoint(as: type)).value
  }

  /// Builds the request an endpoint describes, without sending it: the URL and every header, with the body
  /// encoded to check that it can be.
  public func httpRequest<Value>(for endpoint: Endpoint<Value>) throws -> HTTPRequest {
    try makeRequest(endpoint).request
  }

}

extension APIClient {
  func makeRequest<Value>(_ endpoint: Endpoint<Value>) throws -> (request: HTTPRequest, body: BodyStream?) {
    let queryEncoder = endpoint.queryEncoder ?? configuration.queryEncoder
    var items: [URLQueryItem] = []
    for part in endpoint.queryParts {
      switch part {
      case .query(let query): items += try Self.encoding("query") { try queryEncoder.encode(query) }
      case .encodable(let encode): items += try Self.encoding("query") { try encode(queryEncoder) }
      }
    }
    let base: RequestTarget?
    if let url = endpoint.baseURL {
      base = try RequestTarget(url: url)
    } else if let provider = configuration.baseURLProvider {
      base = try RequestTarget(url: provider())
    } else {
      base = try baseTarget?.get()
    }
    let target = try RequestTarget(
      base: base, path: endpoint.path, query: URLQueryEncoder.percentEncodedString(items))

    if let defaultFieldsProblem { throw defaultFieldsProblem }
    var fields = defaultFields
    try applyHeaderProviders(to: &fields)
    if !endpoint.headers.isEmpty {
      var custom = HTTPFields()
      for header in endpoint.headers {
        let field = try header.validated()
        custom[field.name] = field.value
        fields[field.name] = nil
      }
      fields.append(contentsOf: custom)
    }

    var body: BodyStream?
    if let payload = endpoint.body {
      let context = Payload.Context(
        jsonEncoder: encoder(for: endpoint), queryEncoder: queryEncoder)
      let (encoded, contentType) = try Self.encoding("body") { try payload.make(context) }
      if let contentType, fields[.contentType] == nil {
        fields[.contentType] = contentType
      }
      body = encoded
    }
    let request = HTTPRequest(
      method: endpoint.method, scheme: target.scheme, authority: target.authority, path: target.pathAndQuery,
      headerFields: fields)
    return (request, body)
  }

  /// Runs `work`, turning an `EncodingError` into ``CourierError/Kind-swift.struct/encoding`` with its coding path.
  static func encoding<T>(_ what: String, _ work: () throws -> T) throws -> T {
    do {
      return try work()
    } catch let error as EncodingError {
      var courierError = CourierError(.encoding, "The \(what) could not be encoded", underlyingError: error)
      if case .invalidValue(_, let context) = error {
        courierError.codingPath = CodingPathFormatter.string(context.codingPath)
        courierError.detail = "The \(what) could not be encoded: \(context.debugDescription)"
      }
      throw courierError
    } catch let error as CourierError {
      throw error
    } catch {
      throw CourierError(.encoding, "The \(what) could not be encoded: \(error)", underlyingError: error)
    }
  }

  /// `failure`, marked as a cancellation when the calling task was cancelled.
  static func cancellationAware(_ failure: CourierError) -> CourierError {
    var failure = failure
    if Task.isCancelled, failure.kind != .cancelled {
      failure.kind = .cancelled
      failure.detail = "The request was cancelled (\(failure.detail))"
    }
    return failure
  }

  /// Sleeps until `minimum` seconds have passed since `started`; returns at once when cancelled.
  func waitForMinimumDuration(_ minimum: TimeInterval, since started: Uptime) async throws {
    do {
      try await sleep(seconds: minimum - started.elapsed())
    } catch {
      throw CourierError(.cancelled, "The request was cancelled during its minimum duration")
    }
  }

  /// The value `endpoint` makes of a response: its body decoded, or the error for a status it does not accept or a
  /// body that does not decode.
  func decode<Value>(
    _ endpoint: Endpoint<Value>,
    request: HTTPRequest,
    response: HTTPResponse,
    data: Data
  ) throws -> Value {
    guard endpoint.accepts(response.status) else {
      throw unacceptable(endpoint, request: request, response: response, data: data)
    }
    do {
      return try ResponseDecoding.decode(
        Value.self, data: data, response: response, decoder: decoder(for: endpoint), custom: endpoint.decodeBody)
    } catch {
      var failure = ResponseDecoding.failure(error, type: Value.self, data: data)
      failure.request = request
      failure.response = response
      failure.customMessage = endpoint.statusMessages[response.status]
      throw failure
    }
  }

  /// The error for a status `endpoint` does not accept, with the server's error body decoded when configured.
  func unacceptable<Value>(
    _ endpoint: Endpoint<Value>,
    request: HTTPRequest,
    response: HTTPResponse,
    data: Data
  ) -> CourierError {
    var error = CourierError(
      .unacceptableStatus, "The server answered \(response.status.code) \(response.status.phrase)",
      request: request, response: response, body: data)
    error.serverError = decodeServerError(data)
    error.customMessage = endpoint.statusMessages[response.status]
    return error
  }

  func decodeServerError(_ data: Data) -> (any ServerErrorResponse)? {
    guard let type = configuration.serverErrorType, !data.isEmpty else { return nil }
    return try? configuration.decoder.decode(type, from: data)
  }
}
