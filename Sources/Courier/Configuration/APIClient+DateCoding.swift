import Foundation

extension CodingUserInfoKey {
  /// Marks an encoder whose date strategy the request chose, so a model's own strategy does not replace it.
  static let courierRequestDateStrategy = CodingUserInfoKey(rawValue: "courier.requestDateStrategy")!
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
