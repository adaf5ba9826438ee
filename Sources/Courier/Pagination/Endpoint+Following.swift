import Foundation

extension Endpoint {
  /// The same endpoint (method, headers, body, decoding, options) sent to `url` instead, with no further query
  /// parameters: `url` already carries the whole query.
  func following(_ url: URL) -> Endpoint {
    with { endpoint in
      endpoint.path = url.absoluteString
      endpoint.queryParts = []
    }
  }
}
