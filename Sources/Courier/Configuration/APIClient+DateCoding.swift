import Foundation

extension CodingUserInfoKey {
  /// Marks an encoder whose date strategy the request chose, so a model's own strategy does not replace it.
  static let courierRequestDateStrategy = CodingUserInfoKey(rawValue: "courier.requestDateStrategy")!
}

extension APIClient {
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

extension Payload {
  /// A JSON body from a value whose type is known only at run time, written in its type's date strategy
  /// (``DateCodingStrategyProviding``) unless the request chose one.
  static func json(model value: any Encodable & Sendable) -> Payload {
    Payload { context in
      var encoder = context.jsonEncoder
      if encoder.userInfo[.courierRequestDateStrategy] == nil,
        let model = type(of: value) as? any DateCodingStrategyProviding.Type
      {
        encoder = encoder.with(model.dateCodingStrategy)
      }
      return (BodyStream(try encoder.encode(value)), "application/json")
    }
  }
}
