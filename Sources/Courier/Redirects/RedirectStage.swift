import Foundation
import HTTPTypes
import HTTPTypesFoundation

/// Follows redirects between the interceptors and the transport, the same way on every transport: each hop is one
/// request handed to the transport, built by the rules of ``RedirectPolicy``.
struct RedirectStage {
  let policy: RedirectPolicy
  /// Hands one request to the transport.
  let send: (HTTPRequest, BodyStream?) async throws -> (HTTPResponse, BodyStream)

  static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
  static let credentialFields: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie]
  static let bodyFields: [HTTPField.Name] = [
    .contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation, .transferEncoding,
  ]

  /// Sends `request`, following redirects; `followed` learns each URL the call was sent on to.
  func run(
    _ request: HTTPRequest,
    body: BodyStream?,
    followed: (URL) -> Void
  ) async throws -> (HTTPResponse, BodyStream) {
    var request = request
    var body = body
    var visited: Set<String> = []
    while true {
      let (response, responseBody) = try await send(request, body)
      guard Self.redirectStatuses.contains(response.status.code), policy.maximumRedirects > 0,
        let location = response.headerFields[.location], let current = request.url,
        let target = RedirectLocation.url(location, relativeTo: current),
        let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
      else {
        return (response, responseBody)
      }
      func refusal(_ reason: String) -> CourierError {
        CourierError(
          .redirect, "The \(response.status.code) redirect to \(Self.redacted(target)) was not followed: \(reason)",
          request: request, response: response)
      }
      if visited.isEmpty { visited.insert(Self.key(request.method, current)) }
      guard visited.count <= policy.maximumRedirects else {
        throw refusal("more than \(policy.maximumRedirects) redirects in a row")
      }
      if request.scheme?.lowercased() == "https", scheme == "http" {
        throw refusal("it leaves https for plain http")
      }
      var next = HTTPRequest(method: request.method, url: target, headerFields: request.headerFields)
      if Self.becomesGET(response.status.code, method: request.method) {
        next.method = request.method == .head ? .head : .get
        body = nil
        for name in Self.bodyFields { next.headerFields[name] = nil }
      } else if let body, !body.isRepeatable {
        throw refusal("it asks for the body again and the body can be read only once")
      }
      if Self.origin(of: next) != Self.origin(of: request) {
        for name in Self.credentialFields { next.headerFields[name] = nil }
        for name in policy.removedAcrossOrigins { next.headerFields[name] = nil }
      }
      guard visited.insert(Self.key(next.method, target)).inserted else {
        throw refusal("it leads back to a URL already visited")
      }
      _ = try? await responseBody.collect(upTo: 64 << 10)
      followed(target)
      request = next
    }
  }

  /// Whether a redirect with `status` turns a request with `method` into a GET without a body: 303 always (a HEAD
  /// stays a HEAD), 301 and 302 for anything but GET and HEAD, as browsers and URLSession do.
  static func becomesGET(_ status: Int, method: HTTPRequest.Method) -> Bool {
    switch status {
    case 303: method != .get
    case 301, 302: method != .get && method != .head
    default: false
    }
  }

  /// Scheme, host and port, with the scheme's default port filled in.
  static func origin(of request: HTTPRequest) -> String {
    let scheme = request.scheme?.lowercased() ?? "http"
    guard let url = URL(string: "\(scheme)://\(request.authority ?? "")"), let host = url.host?.lowercased() else {
      return "\(scheme)://\(request.authority?.lowercased() ?? "")"
    }
    return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
  }

  static func key(_ method: HTTPRequest.Method, _ url: URL) -> String {
    "\(method.rawValue) \(url.absoluteString)"
  }

  /// `url` without its query, which may carry a token.
  static func redacted(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "a new URL" }
    if components.query != nil { components.query = "…" }
    components.user = nil
    components.password = nil
    return components.string ?? "a new URL"
  }
}
