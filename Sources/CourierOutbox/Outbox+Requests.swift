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
    if let body = request.body {
      endpoint = endpoint.body(body)
    } else if let name = request.bodyFile {
      guard let bodyFiles else {
        throw OutboxError(.storeFailure, "The item's body is in a file, but the outbox's database is not a file")
      }
      // Read a chunk at a time as it is sent, every attempt from the first byte.
      endpoint = endpoint.body(.body(try BodyStream.file(at: bodyFiles.url(of: name))))
    }
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

  /// The stored form of `endpoint`'s request: its body read whole, or written to a file of its own when it is
  /// larger than ``Configuration/fileBodyThreshold``. A body file's key stays in ``bodiesBeingStored`` until
  /// ``committing(_:_:)`` is done with it.
  func stored<Value>(_ endpoint: Endpoint<Value>) async throws -> StoredRequest {
    let (request, body) = try Self.built(endpoint, client: client)
    guard let body else { return try Self.stored(request, body: nil, client: client) }
    if let data = body.bufferedData, bodyFiles?.takes(body) != true {
      return try Self.stored(request, body: data, client: client)
    }
    guard body.isRepeatable else {
      throw OutboxError(
        .invalidRequest,
        "The body can be read only once (a one-shot AsyncSequence), so it could not be sent again after a "
          + "failure; give the outbox data, a file or an encodable value")
    }
    guard let bodyFiles, bodyFiles.takes(body) else {
      return try Self.stored(request, body: try await body.collect(), client: client)
    }
    var stored = try Self.stored(request, body: nil, client: client)
    bodiesBeingStored.insert(stored.idempotencyKey)
    do {
      let file = try await bodyFiles.write(body, key: stored.idempotencyKey)
      stored.bodyFile = file.name
      stored.bodyLength = file.length
      stored.bodyDigest = file.digest
      return stored
    } catch {
      bodiesBeingStored.remove(stored.idempotencyKey)
      throw error
    }
  }

  /// Runs `commit`, which writes `requests` to the store; their body files are removed when it throws, and marked as
  /// their rows' when it returns.
  func committing<T>(_ requests: [StoredRequest], _ commit: () async throws -> T) async throws -> T {
    defer { for request in requests { bodiesBeingStored.remove(request.idempotencyKey) } }
    let committed: T
    do {
      committed = try await commit()
    } catch {
      forget(requests)
      throw error
    }
    for request in requests { if let name = request.bodyFile { bodyFiles?.markCommitted(name) } }
    return committed
  }

  /// Removes the body files of `requests`, which were never stored.
  func forget(_ requests: [StoredRequest]) {
    for request in requests {
      bodiesBeingStored.remove(request.idempotencyKey)
      if let name = request.bodyFile { bodyFiles?.remove(name) }
    }
  }

  /// Removes the body files no item needs any more: delivered or cancelled before a crash, or written for an enqueue
  /// that never committed. The folder is listed before the store is read, so a body written meanwhile is not seen.
  func sweepBodies() async {
    guard let bodyFiles else { return }
    let names = bodyFiles.names()
    // A body whose row commits while the store is read was being stored when the folder was listed.
    let storing = bodiesBeingStored
    guard !names.isEmpty, let referenced = try? await store.referencedBodyFiles() else { return }
    bodyFiles.sweep(names, keeping: referenced, except: storing.union(bodiesBeingStored))
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
