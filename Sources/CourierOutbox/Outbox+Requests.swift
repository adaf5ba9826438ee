import Courier
import Foundation
import HTTPTypes

// How an outbox item is stored, and sent again: HTTP without credentials, relative to the client's base URL.
extension Outbox {
  /// The endpoint that sends `request` through the client, with its key.
  nonisolated func endpoint(for request: StoredRequest) throws -> Endpoint<Data> {
    guard let base = client.configuration.baseURLProvider?() ?? client.configuration.baseURL,
      let url = URL(string: Self.joined(base.absoluteString, request.target))
    else { throw OutboxError(.invalidRequest, "The client has no base URL for \(request.target)") }
    var endpoint = Endpoint<Data>(request.target, method: request.method).url(url).expectAnyStatus()
    endpoint = endpoint.headers(request.headerFields)
    endpoint = endpoint.header(Self.idempotencyKey, "\"\(request.idempotencyKey)\"")
    if let body = request.body { endpoint = endpoint.body(body) }
    return endpoint
  }

  /// `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): a Structured Field string.
  static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

  static func joined(_ base: String, _ target: String) -> String {
    let head = base.hasSuffix("/") ? String(base.dropLast()) : base
    return head + (target.hasPrefix("/") ? target : "/" + target)
  }

  nonisolated static func built<Value>(
    _ endpoint: Endpoint<Value>, client: APIClient
  ) throws -> (HTTPRequest, BodyStream?) {
    let (request, body) = try client.requestAndBody(for: endpoint)
    guard ![.get, .head, .options, .trace].contains(request.method) else {
      throw OutboxError(
        .invalidRequest,
        "A \(request.method) request is not a write: the outbox stores unsafe requests (POST, PUT, PATCH, DELETE); "
          + "serve reads offline from the cache")
    }
    return (request, body)
  }

  /// The stored form of `endpoint`'s request, its body read whole.
  static func stored<Value>(_ endpoint: Endpoint<Value>, client: APIClient) async throws -> StoredRequest {
    let (request, body) = try built(endpoint, client: client)
    var data: Data?
    if let body {
      if let buffered = body.bufferedData {
        data = buffered
      } else {
        guard body.isRepeatable else {
          throw OutboxError(
            .invalidRequest,
            "The body can be read only once (a one-shot AsyncSequence), so it could not be sent again after a "
              + "failure; give the outbox data, a file or an encodable value")
        }
        data = try await body.collect()
      }
    }
    return try stored(request, body: data, client: client)
  }

  /// `request` as stored: its target relative to the client's base URL, without credentials or the client's default
  /// headers (the client adds both when the item is sent), with a new key and the body's digest.
  static func stored(_ request: HTTPRequest, body: Data?, client: APIClient) throws -> StoredRequest {
    let full = request.path ?? "/"
    var target = full
    if let base = client.configuration.baseURLProvider?() ?? client.configuration.baseURL {
      let basePath = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
      guard basePath.isEmpty || full.hasPrefix(basePath) else {
        throw OutboxError(
          .invalidRequest, "The request's path \(full) is outside the client's base URL \(base.absoluteString)")
      }
      target = String(full.dropFirst(basePath.count))
    }
    var fields = HTTPFields()
    let defaults = Set(client.configuration.defaultHeaders.map(\.name))
    for field in request.headerFields where !credentialNames.contains(field.name) && !defaults.contains(field.name) {
      fields.append(field)
    }
    return StoredRequest(
      method: request.method, target: target, headerFields: fields, body: body,
      bodyDigest: StoredRequest.digest(of: body),
      idempotencyKey: UUID().uuidString.lowercased())
  }

  /// Headers never stored: credentials, and whatever the logging interceptor hides by default.
  static let credentialNames: Set<HTTPField.Name> = LoggingInterceptor.defaultRedactedHeaders.union([
    .authorization, .cookie, .proxyAuthorization, idempotencyKey,
  ])
}
