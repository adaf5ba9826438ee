extension CourierError {
  /// The kind of a ``CourierError``.
  ///
  /// An open set of static members rather than an enum, so new kinds can be added without breaking a `switch`
  /// in your code; compare with `==` or match with `case .timeout:`.
  public struct Kind: Sendable, Hashable, CustomStringConvertible {
    enum Base: String, Sendable, Hashable {
      case invalidURL, invalidRequest, encoding, noConnection, timeout, connectionLost, cancelled, tls, transport
      case unacceptableStatus, decoding, unauthorized, notCached, integrity, fileSystem, redirect, responseTooLarge
      case keychain
    }

    let base: Base

    /// The URL could not be built: no base URL for a relative path, an unsupported scheme, a malformed absolute URL.
    public static let invalidURL = Kind(base: .invalidURL)
    /// The request was not valid and was not sent: e.g. a header value containing CR or LF, an invalid header name.
    public static let invalidRequest = Kind(base: .invalidRequest)
    /// A query, form or JSON body could not be encoded; ``CourierError/codingPath`` names the value.
    public static let encoding = Kind(base: .encoding)
    /// The host could not be reached: offline, DNS failure, connection refused.
    public static let noConnection = Kind(base: .noConnection)
    /// The request timed out.
    public static let timeout = Kind(base: .timeout)
    /// The connection dropped while the request or response was in flight.
    public static let connectionLost = Kind(base: .connectionLost)
    /// The calling task or the request was cancelled.
    public static let cancelled = Kind(base: .cancelled)
    /// A secure connection could not be established (certificate, handshake).
    public static let tls = Kind(base: .tls)
    /// Any other transport failure; see ``CourierError/underlyingError``.
    public static let transport = Kind(base: .transport)
    /// The response status was not one the endpoint expects (by default 200..<300).
    public static let unacceptableStatus = Kind(base: .unacceptableStatus)
    /// The response body could not be decoded; ``CourierError/body`` keeps the bytes.
    public static let decoding = Kind(base: .decoding)
    /// The credentials were rejected and could not be refreshed; the user has to sign in again.
    public static let unauthorized = Kind(base: .unauthorized)
    /// The cache policy allowed only cached responses (``CachePolicy/returnCacheOnly``) and nothing was stored.
    public static let notCached = Kind(base: .notCached)
    /// A downloaded file does not match what was expected of it: its SHA-256 or its length.
    public static let integrity = Kind(base: .integrity)
    /// A local file could not be created, written or moved (a download's destination, a temporary file).
    public static let fileSystem = Kind(base: .fileSystem)

    /// A redirect could not be followed: too many in a row, a loop, from https to http, or a body that cannot be
    /// sent again; ``CourierError/response`` is the redirect that was not followed.
    public static let redirect = Kind(base: .redirect)

    /// The response body was larger than the call's limit (``APIClient/Configuration/maxResponseBytes``,
    /// ``Endpoint/maxResponseBytes(_:)``); the transfer was ended early.
    public static let responseTooLarge = Kind(base: .responseTooLarge)

    /// The Keychain refused to read, save or delete credentials (`TokenStore.keychain(service:account:accessGroup:
    /// accessibility:)`, Apple platforms): the device is locked, the app lacks the entitlement for the access group,
    /// or no Keychain is available. The description names the `OSStatus`; ``CourierError/underlyingError`` is an
    /// `NSError` in `NSOSStatusErrorDomain` with it as the code. Never retryable.
    public static let keychain = Kind(base: .keychain)

    /// The kind's name, e.g. `timeout`.
    public var description: String { base.rawValue }
  }
}
