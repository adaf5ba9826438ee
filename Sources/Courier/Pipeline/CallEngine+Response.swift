import Foundation
import HTTPTypes

// Step 6 of a call (see the walk-through in CallEngine.swift): the response made into the front-end's
// result — the body collected up to the limit, the status checked, the value decoded, or the error.

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
