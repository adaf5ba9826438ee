import Courier
import HTTPTypes
import OTelSemanticConventions

/// The attributes OpenTelemetry's HTTP client conventions give a request, shared by the spans and the metrics.
struct HTTPClientAttributes: Sendable {
  /// `http.request.method`: the method, or `_OTHER` for one the conventions do not know.
  let method: String
  /// `http.request.method_original`: the method as sent, when ``method`` is `_OTHER`.
  let originalMethod: String?
  /// `server.address`: the host, without brackets, user info or port.
  let address: String
  /// `server.port`: the port, or the scheme's default.
  let port: Int
  /// `url.scheme`.
  let scheme: String

  /// The methods of RFC 9110 and RFC 5789 that the conventions list.
  private static let knownMethods: Set<String> = [
    "CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE", "QUERY",
  ]

  init(_ request: HTTPRequest) {
    let sent = request.method.rawValue
    let known = Self.knownMethods.contains(sent)
    method = known ? sent : "_OTHER"
    originalMethod = known ? nil : sent
    scheme = request.scheme?.lowercased() ?? "https"
    let authority = request.authority ?? ""
    address = CleartextPolicy.host(of: authority) ?? ""
    port = Self.port(of: authority) ?? (scheme == "http" ? 80 : 443)
  }

  /// The port an authority names (`host:8080`, `[::1]:8080`), if any.
  private static func port(of authority: String) -> Int? {
    guard let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") else { return nil }
    return Int(authority[authority.index(after: colon)...])
  }

  /// The dimensions every HTTP client metric carries.
  var metricDimensions: [(String, String)] {
    [
      (OTelAttribute.http.request.method, method),
      (OTelAttribute.server.address, address),
      (OTelAttribute.server.port, String(port)),
      (OTelAttribute.url.scheme, scheme),
    ]
  }

  /// `error.type` for a finished exchange: the status code for a 4xx or 5xx answer, the error's kind for a failure
  /// (`timeout`, `noConnection`, …), or the error's type name for an error that is not Courier's.
  static func errorType(status: HTTPResponse.Status?, error: (any Error)?) -> String? {
    if let error {
      if let courierError = error as? CourierError {
        // An answer that came back with an error status is named by its status, as a returned one is.
        if let status = courierError.status, status.code >= 400 { return String(status.code) }
        return "\(courierError.kind)"
      }
      return String(describing: type(of: error))
    }
    if let status, status.code >= 400 { return String(status.code) }
    return nil
  }
}
