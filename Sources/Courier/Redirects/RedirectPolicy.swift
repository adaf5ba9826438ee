import HTTPTypes

/// Whether and how far Courier follows redirects, on every transport alike (transports never follow them).
///
/// Courier follows `301`, `302`, `303`, `307` and `308` with a `Location`: `303`, and `301`/`302` after anything
/// but `GET` or `HEAD`, become a `GET` without a body; `307` and `308` keep the method and send the body again (a
/// body that can be read only once ends the chain with ``CourierError/Kind-swift.struct/redirect``). When the
/// origin (scheme, host, port) changes, `Authorization`, `Proxy-Authorization`, `Cookie` and the headers you name in
/// ``removedAcrossOrigins`` are not sent on. A redirect from https to http, a loop, or more than
/// ``maximumRedirects`` in a row fail with ``CourierError/Kind-swift.struct/redirect``. A `Location` that is not
/// http or https is handed back as the response.
///
/// ```swift
/// let client = APIClient(baseURL: url) { $0.redirects = .follow(max: 5, removingAcrossOrigins: ["X-Api-Key"]) }
/// let raw = Endpoint<EmptyBody>.get("/short/abc").redirects(.none).expect(.found)   // the 302 itself
/// ```
public struct RedirectPolicy: Sendable, Hashable {
  /// The most redirects followed in a row; `0` hands every redirect back as the response.
  public var maximumRedirects: Int
  /// Headers not sent on to another origin, besides `Authorization`, `Proxy-Authorization` and `Cookie`.
  public var removedAcrossOrigins: Set<HTTPField.Name>

  /// Follows at most 10 redirects: the default.
  public static let follow = RedirectPolicy(maximumRedirects: 10, removedAcrossOrigins: [])
  /// Follows none: a redirect is the response.
  public static let none = RedirectPolicy(maximumRedirects: 0, removedAcrossOrigins: [])

  /// Follows at most `max` redirects, keeping `headers` (as well as credentials and cookies) from other origins.
  public static func follow(max: Int, removingAcrossOrigins headers: Set<HTTPField.Name> = []) -> RedirectPolicy {
    RedirectPolicy(maximumRedirects: Swift.max(0, max), removedAcrossOrigins: headers)
  }
}

extension Endpoint {
  /// Sets how this endpoint follows redirects, over ``APIClient/Configuration/redirects``; `.none` hands a
  /// redirect back (accept its status with ``expect(_:)-(HTTPResponse.Status...)``).
  public func redirects(_ policy: RedirectPolicy) -> Endpoint {
    with { $0.redirectPolicy = policy }
  }
}
