import Foundation
import HTTPTypes

/// Headers a client computes for every request it sends: a session ID, the app's version, a feature flag.
///
/// A provider runs each time a request is built, so it always reports the current value. Make one from a closure
/// that returns fields, or from an `Encodable` value whose properties become headers (a `nil` property is left
/// out, so a header can come and go). List them in ``APIClient/Configuration/headerProviders``; later providers
/// replace earlier ones' fields of the same name, an endpoint's own headers replace them all, and they replace
/// ``APIClient/Configuration/defaultHeaders``.
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
///   $0.headerProviders = [
///     .fields { [.acceptLanguage: session.language] },
///     .encodable { DeviceHeaders(experiment: flags.current) },
///   ]
/// }
/// ```
public struct HeaderProvider: Sendable {
  let make: @Sendable () throws -> [HTTPHeader]

  /// A provider that runs `fields` for every request.
  public static func fields(_ fields: @escaping @Sendable () -> HTTPFields) -> HeaderProvider {
    HeaderProvider { fields().map { HTTPHeader($0.name, $0.value) } }
  }

  /// A provider that runs `value` for every request and sends each of its non-`nil` properties as a header named
  /// by its coding key. Arrays are joined with commas (`Accept: a,b`); nested objects are not allowed.
  public static func encodable<Value: Encodable>(_ value: @escaping @Sendable () -> Value) -> HeaderProvider {
    HeaderProvider {
      var encoder = URLQueryEncoder()
      encoder.arrayEncoding = .commaSeparated
      return try encoder.encode(value()).compactMap { item in item.value.map { HTTPHeader(item.name, $0) } }
    }
  }

  /// A provider that sends the non-`nil` properties of a fixed value as headers.
  public static func encodable(_ value: some Encodable & Sendable) -> HeaderProvider {
    encodable { value }
  }

  /// The provider's headers for one request.
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/encoding`` when an `Encodable` value cannot be encoded.
  public func headers() throws -> [HTTPHeader] {
    try APIClient.encoding("headers", make)
  }
}

extension APIClient {
  /// Adds every provider's headers to `fields`, later providers replacing earlier fields of the same name.
  func applyHeaderProviders(to fields: inout HTTPFields) throws {
    for provider in configuration.headerProviders {
      for header in try provider.headers() {
        let field = try header.validated()
        fields[field.name] = field.value
      }
    }
  }
}
