import Foundation
import HTTPTypes

// Step 6 of a call (see the walk-through in CallEngine.swift): the response made into the front-end's
// result — the body collected up to the limit, the status checked, the value decoded, or the error. A front-end picks
// one of the stages below when it starts the call; the call runs it last.

/// What a call makes of its response, chosen by the front-end when the call starts, run by ``Call/run(_:)`` last: it
/// returns the call's result and the body bytes it read (`nil` when it leaves the body to the caller).
struct ResponseStage<Result: Sendable>: Sendable {
  /// Whether the caller reads the body as it arrives (which is then not limited).
  let incremental: Bool
  let read: @Sendable (Call, HTTPRequest, HTTPResponse, BodyStream) async throws -> (Result, Int64?)

  /// `send`: the body collected and decoded, with the response around it.
  static func response<Value>(_ endpoint: Endpoint<Value>) -> ResponseStage
  where Result == APIResponse<Value> {
    ResponseStage(incremental: false) { call, request, response, body in
      let data = try await call.collect(body)
      let value = try call.engine.decode(endpoint, request: request, response: response, data: data)
      let result = APIResponse(
        value: value, data: data, response: response, request: request, cacheStatus: CacheStatus(response),
        redirects: call.context.events.redirects)
      return (result, Int64(data.count))
    }
  }

  /// `stream`: the status checked, the body handed on as it arrives, its errors typed and its idle limit kept.
  static func stream<Value>(_ endpoint: Endpoint<Value>, progress: TransferReporters?) -> ResponseStage
  where Result == StreamedResponse {
    ResponseStage(incremental: true) { call, request, response, body in
      guard endpoint.accepts(response.status) else {
        let data = try? await body.collect(upTo: 1 << 20)
        throw call.engine.unacceptable(endpoint, request: request, response: response, data: data ?? Data())
      }
      let chunks = ErrorTypedBody(
        base: body, request: request, response: response, progress: progress, idle: call.context.idleTimeout,
        clock: call.engine.deadlines.clock)
      let stream = StreamedResponse(
        value: BodyStream(chunks, length: body.length, isRepeatable: body.isRepeatable), data: Data(),
        response: response, request: request, redirects: call.context.events.redirects)
      return (stream, nil)
    }
  }
}

extension ResponseStage where Result: Decodable {
  /// `value`: the body collected and decoded.
  static func value(_ endpoint: Endpoint<Result>) -> ResponseStage {
    ResponseStage(incremental: false) { call, request, response, body in
      let data = try await call.collect(body)
      return (try call.engine.decode(endpoint, request: request, response: response, data: data), Int64(data.count))
    }
  }
}

extension Call {
  /// The whole of a body the caller does not stream, up to the call's limit; download progress ends with it.
  func collect(_ body: BodyStream) async throws -> Data {
    let data = try await body.collect(upTo: context.maxResponseBytes ?? .max)
    context.progress?.download?.finish(complete: true)
    return data
  }
}

extension CallEngine {
  /// The decoder for `endpoint`'s body: the endpoint's date strategy or decoder, else the model's strategy, else
  /// the client's strategy, else the client's decoder as configured.
  func decoder<Value>(for endpoint: Endpoint<Value>) -> JSONDecoder {
    if let strategy = endpoint.dateCodingStrategy {
      return (endpoint.decoder ?? configuration.decoder).with(strategy)
    }
    if let decoder = endpoint.decoder { return decoder }
    if let model = Value.self as? any DateCodingStrategyProviding.Type {
      return configuration.decoder.with(model.dateCodingStrategy)
    }
    if let strategy = configuration.dateCodingStrategy { return configuration.decoder.with(strategy) }
    return configuration.decoder
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

extension CourierError {
  /// This error, marked as a cancellation when the calling task was cancelled.
  func cancellationAware() -> CourierError {
    var failure = self
    if Task.isCancelled, failure.kind != .cancelled {
      failure.kind = .cancelled
      failure.detail = "The request was cancelled (\(failure.detail))"
    }
    return failure
  }
}
