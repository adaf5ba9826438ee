/// A model that declares how its dates are written, so every body of its type is decoded that way without
/// configuring each endpoint.
///
/// The strategy applies to the whole body when the body's type is the model or an array of it; dates in nested
/// types follow it too. An endpoint's own strategy (``Endpoint/dateCodingStrategy(_:)``) or decoder wins over the
/// model's, and the model's wins over the client's.
///
/// ```swift
/// struct Invoice: Decodable, Sendable, DateCodingStrategyProviding {
///   var id: Int
///   var issuedAt: Date
///   static var dateCodingStrategy: DateCodingStrategy { .secondsSince1970 }
/// }
/// let invoices = try await client.value(Endpoint<[Invoice]>.get("/invoices"))  // "issuedAt": 1714564800
/// ```
///
/// Courier also encodes the model with it in the JSON bodies it builds from a value whose type it sees:
/// CourierStyles' `request(endpoint:method:queryItems:headers:body:as:)`, `EndpointTask` parameters and
/// `RequestParameters.body(_:)`.
public protocol DateCodingStrategyProviding {
  /// The strategy for this type's dates.
  static var dateCodingStrategy: DateCodingStrategy { get }
}

extension Array: DateCodingStrategyProviding where Element: DateCodingStrategyProviding {
  /// The element type's strategy.
  public static var dateCodingStrategy: DateCodingStrategy { Element.dateCodingStrategy }
}
