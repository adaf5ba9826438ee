import Foundation
import HTTPTypes

// Step 3 of a call (see the walk-through in CallEngine.swift): the request and body an endpoint
// describes.

extension CallEngine {
  /// The request `endpoint` describes, with its body encoded.
  func makeRequest<Value>(_ endpoint: Endpoint<Value>) throws -> (request: HTTPRequest, body: BodyStream?) {
    let queryEncoder = endpoint.queryEncoder ?? configuration.queryEncoder
    var items: [URLQueryItem] = []
    for part in endpoint.queryParts {
      switch part {
      case .query(let query): items += try CallEngine.encoding("query") { try queryEncoder.encode(query) }
      case .encodable(let encode): items += try CallEngine.encoding("query") { try encode(queryEncoder) }
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
    for provider in configuration.headerProviders {
      for header in try provider.headers() {
        let field = try header.validated()
        fields[field.name] = field.value
      }
    }
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
      let (encoded, contentType) = try CallEngine.encoding("body") { try payload.make(context) }
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
}

extension CallEngine {
  /// The encoder for `endpoint`'s JSON body, in the same order as ``decoder(for:)``; one the request chose is marked
  /// so that a model's strategy does not replace it.
  func encoder<Value>(for endpoint: Endpoint<Value>) -> JSONEncoder {
    if endpoint.dateCodingStrategy != nil || endpoint.encoder != nil {
      var encoder = (endpoint.encoder ?? configuration.encoder).copy()
      if let strategy = endpoint.dateCodingStrategy { encoder = encoder.with(strategy) }
      encoder.userInfo[.courierRequestDateStrategy] = true
      return encoder
    }
    if let strategy = configuration.dateCodingStrategy { return configuration.encoder.with(strategy) }
    return configuration.encoder
  }
}
