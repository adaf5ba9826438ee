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
    try await engine.perform(endpoint, progress: progress, .response(endpoint))
  }

  /// Sends `endpoint` and returns only the decoded value.
  ///
  /// The same call as ``send(_:)``, without making the ``APIResponse``.
  @discardableResult
  public func value<Value>(_ endpoint: Endpoint<Value>) async throws -> Value {
    try await engine.perform(endpoint, progress: TransferReporters(endpoint), .value(endpoint))
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
    try await value(target.endpoint(as: type))
  }

  /// Builds the request an endpoint describes, without sending it: the URL and every header, with the body
  /// encoded to check that it can be.
  public func httpRequest<Value>(for endpoint: Endpoint<Value>) throws -> HTTPRequest {
    try engine.makeRequest(endpoint).request
  }

}

extension APIClient {
  /// The request and the body `endpoint` describes, as the client would send them (for the outbox, which stores
  /// both).
  package func requestAndBody<Value>(for endpoint: Endpoint<Value>) throws -> (HTTPRequest, BodyStream?) {
    let built = try engine.makeRequest(endpoint)
    return (built.request, built.body)
  }
}
