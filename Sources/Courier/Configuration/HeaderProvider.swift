import Foundation
import HTTPTypes

/// Headers computed for every request; see ``APIClient/Configuration/addHeaders(_:)``.
struct HeaderProvider: Sendable {
  let make: @Sendable () throws -> [HTTPHeader]

  /// The provider's headers for one request.
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/encoding`` when an `Encodable` value cannot be encoded.
  func headers() throws -> [HTTPHeader] {
    try CallEngine.encoding("headers", make)
  }
}

extension APIClient.Configuration {
  /// Adds headers the client computes for every request it sends: a session ID, the app's version, a feature flag.
  ///
  /// `fields` runs each time a request is built, so it always reports the current value. Providers run in the order
  /// they were added; later ones replace earlier ones' fields of the same name, an endpoint's own headers replace
  /// them all, and they replace ``defaultHeaders``.
  ///
  /// ```swift
  /// let client = APIClient(baseURL: url) {
  ///   $0.addHeaders { [.acceptLanguage: session.language] }
  /// }
  /// ```
  public mutating func addHeaders(_ fields: @escaping @Sendable () -> HTTPFields) {
    headerProviders.append(HeaderProvider { fields().map { HTTPHeader($0.name, $0.value) } })
  }

  /// Adds headers from an `Encodable` value computed for every request: each of its non-`nil` properties becomes a
  /// header named by its coding key (a `nil` property is left out, so a header can come and go). Arrays are joined
  /// with commas (`Accept: a,b`); nested objects fail the request with
  /// ``CourierError/Kind-swift.struct/invalidRequest``.
  ///
  /// ```swift
  /// struct DeviceHeaders: Encodable {
  ///   var appVersion = "2.4.1"
  ///   var experiment: String? = nil
  ///   enum CodingKeys: String, CodingKey {
  ///     case appVersion = "X-App-Version"
  ///     case experiment = "X-Experiment"
  ///   }
  /// }
  /// let client = APIClient(baseURL: url) {
  ///   $0.addEncodedHeaders { DeviceHeaders(experiment: flags.current) }
  /// }
  /// ```
  public mutating func addEncodedHeaders<Value: Encodable & Sendable>(_ value: @escaping @Sendable () -> Value) {
    headerProviders.append(
      HeaderProvider {
        var encoder = URLQueryEncoder()
        encoder.arrayEncoding = .commaSeparated
        return try encoder.encode(value()).compactMap { item in item.value.map { HTTPHeader(item.name, $0) } }
      })
  }

  /// Adds the non-`nil` properties of a fixed value as headers of every request; see the closure form of
  /// `addEncodedHeaders(_:)`.
  public mutating func addEncodedHeaders(_ value: some Encodable & Sendable) {
    addEncodedHeaders { value }
  }
}
