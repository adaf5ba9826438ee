import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOSSL

extension AsyncHTTPClientTransport {
  /// What an `HTTPClient` does on its own: inflate compressed bodies, time out connects and reads, and retry failed
  /// connection attempts. It never follows redirects: Courier does, the same way on every transport (see
  /// `RedirectPolicy`).
  ///
  /// AsyncHTTPClient sets these per client, not per request, so a configuration describes a client: make the client
  /// from ``httpClientConfiguration`` and hand both to ``AsyncHTTPClientTransport/init(client:configuration:)``.
  /// The defaults behave like `URLSessionTransport`: gzip and deflate bodies are inflated, and a refused
  /// connection fails at once instead of being retried.
  ///
  /// ```swift
  /// var configuration = AsyncHTTPClientTransport.Configuration()
  /// configuration.decompression = .disabled      // keep bodies as the server sent them
  /// let httpClient = HTTPClient(eventLoopGroupProvider: .singleton,
  ///                             configuration: configuration.httpClientConfiguration)
  /// ```
  public struct Configuration: Sendable {
    /// Whether the client inflates gzip and deflate response bodies, with a limit against decompression bombs.
    public var decompression: HTTPClient.Decompression
    /// The longest wait for a connection to be established, in seconds.
    public var connectTimeout: TimeInterval
    /// The longest wait between two reads while a request is in flight, in seconds; `nil` for no limit.
    ///
    /// This bounds a stalled response body, which the per-request deadline (it covers the response head only)
    /// does not.
    public var readTimeout: TimeInterval?
    /// Whether a failed connection attempt is retried (with backoff, until the connect timeout or the request's
    /// deadline) instead of failing the request at once with `CourierError.Kind.noConnection`.
    ///
    /// Off by default, so that a refused connection is reported as promptly as URLSession reports it and a
    /// `RetryInterceptor` alone decides whether and when to try again.
    public var retriesFailedConnections: Bool
    /// The most connections the client keeps open to one host; further requests wait for a free connection.
    public var maximumConnectionsPerHost: Int
    /// The largest `Content-Length`, in bytes, of a response the transport reads whole before it returns.
    ///
    /// Such a response arrives as a buffered `BodyStream`, as with URLSession, so interceptors that look at
    /// bytes (logging, caching, recording) see them. Larger responses, those of unknown length, and those the caller
    /// reads as they arrive (streams, downloads, download progress) stream chunk by chunk. This is a transport
    /// option, not a client one: it does not change the `HTTPClient` you make.
    public var responseBufferingLimit: Int
    /// Whether a connection that cannot be made yet (the device is offline, the host refuses it) waits for the
    /// network to change until the connect timeout, instead of failing the request at once with
    /// `CourierError.Kind.noConnection`. Applies on Apple platforms, where AsyncHTTPClient runs on Network.framework
    /// (`HTTPClient.Configuration.networkFrameworkWaitForConnectivity`); SwiftNIO's sockets never wait.
    ///
    /// Off by default, so that an offline device is reported as promptly as URLSession reports it (a
    /// `ConnectivityInterceptor` can wait for the network instead, for every transport).
    public var waitsForConnectivity = false
    /// The servers the transport trusts over TLS; the system's roots unless ``trust(_:)`` set another policy.
    public private(set) var serverTrust = ServerTrustPolicy.system
    /// The TLS configuration ``serverTrust`` makes, set on the client and on every request.
    private(set) var tlsConfiguration: TLSConfiguration?

    /// Creates a configuration; the defaults behave like URLSession.
    ///
    /// - Parameters:
    ///   - decompression: Inflate gzip and deflate, refusing bodies that grow more than 25 times.
    ///   - connectTimeout: 10 seconds by default.
    ///   - readTimeout: No limit by default.
    ///   - retriesFailedConnections: `false` by default: a refused connection fails the request at once.
    ///   - maximumConnectionsPerHost: 8 by default, as in AsyncHTTPClient.
    ///   - responseBufferingLimit: Responses of at most 1 MiB are read whole by default.
    public init(
      decompression: HTTPClient.Decompression = Configuration.inflatingGzipAndDeflate,
      connectTimeout: TimeInterval = 10,
      readTimeout: TimeInterval? = nil,
      retriesFailedConnections: Bool = false,
      maximumConnectionsPerHost: Int = 8,
      responseBufferingLimit: Int = 1 << 20
    ) {
      self.decompression = decompression
      self.connectTimeout = connectTimeout
      self.readTimeout = readTimeout
      self.retriesFailedConnections = retriesFailedConnections
      self.maximumConnectionsPerHost = maximumConnectionsPerHost
      self.responseBufferingLimit = responseBufferingLimit
    }

    /// Trusts servers by `policy`: the system's roots, only your own (a private CA), or both.
    ///
    /// ```swift
    /// var configuration = AsyncHTTPClientTransport.Configuration()
    /// try configuration.trust(.roots(pem: privateCAPEM))
    /// let transport = AsyncHTTPClientTransport(configuration: configuration)
    /// ```
    ///
    /// A server whose chain does not lead to these roots, whose certificate has expired, or whose certificate does
    /// not name the host fails the call at once with `CourierError.Kind.tls`.
    ///
    /// Your own roots alone are set as the client's `TLSConfiguration.trustRoots`, which both SwiftNIO SSL and
    /// Network.framework use. With the system's roots too, they are `additionalTrustRoots`, which only SwiftNIO SSL
    /// (Linux) reads: AsyncHTTPClient on Network.framework (Apple platforms) sets a server's anchors to the trust
    /// roots alone, so the transport refuses that policy there; trust your roots alone, or use
    /// `URLSessionTransport`, which enforces it on Apple platforms.
    ///
    /// - Throws: `CourierError.Kind.tls` when a certificate is not valid DER; when the
    ///   policy pins public keys: AsyncHTTPClient's TLS configuration has no certificate-verification callback, so
    ///   this transport cannot check pins, and refuses them rather than run unpinned; and on Apple platforms when
    ///   the policy adds roots of your own to the system's.
    public mutating func trust(_ policy: ServerTrustPolicy) throws {
      guard policy.pinnedKeys.isEmpty else {
        let hosts = policy.pinnedKeys.keys.sorted().joined(separator: ", ")
        throw CourierError(
          .tls,
          "AsyncHTTPClientTransport cannot check public-key pins (for \(hosts)): AsyncHTTPClient's TLS "
            + "configuration has no certificate-verification callback. Trust your own CA with custom roots instead")
      }
      if policy.isSystemDefault {
        tlsConfiguration = nil
        serverTrust = policy
        return
      }
      let roots = try Self.certificates(policy.certificates)
      var tls = TLSConfiguration.makeClientConfiguration()
      if !policy.trustsSystemRoots {
        tls.trustRoots = .certificates(roots)
      } else if Self.addsRootsToSystemRoots {
        tls.additionalTrustRoots = [.certificates(roots)]
      } else {
        throw CourierError(
          .tls,
          "AsyncHTTPClientTransport on Network.framework cannot trust custom roots together with the system's: "
            + "AsyncHTTPClient sets the custom roots as a server's only anchors. Trust the custom roots alone "
            + "(trustsSystemRoots: false), or use URLSessionTransport")
      }
      tlsConfiguration = tls
      serverTrust = policy
    }

    /// Whether the client's TLS adds `additionalTrustRoots` to the system's: SwiftNIO SSL does, AsyncHTTPClient's
    /// Network.framework TLS (the default event loop group on Apple platforms) ignores them.
    #if canImport(Network)
    static let addsRootsToSystemRoots = false
    #else
    static let addsRootsToSystemRoots = true
    #endif

    private static func certificates(_ der: [Data]) throws -> [NIOSSLCertificate] {
      try der.enumerated().map { index, bytes in
        do {
          return try NIOSSLCertificate(bytes: Array(bytes), format: .der)
        } catch {
          throw CourierError(
            .tls, "Root certificate \(index + 1) is not a valid DER certificate: \(error)", underlyingError: error)
        }
      }
    }

    /// Inflates gzip and deflate bodies, refusing any that grows more than 25 times (a decompression bomb).
    public static var inflatingGzipAndDeflate: HTTPClient.Decompression {
      .enabled(limit: .ratio(25))
    }

    /// What `HTTPClient.shared` does, for a transport over it: inflates gzip and deflate, waits up to 90 seconds to
    /// connect and between reads, retries failed connection attempts, and waits for connectivity. Unlike a client made
    /// from a configuration, `HTTPClient.shared` also follows up to 20 redirects itself, before Courier sees them.
    public static var sharedClient: Configuration {
      var configuration = Configuration(
        decompression: inflatingGzipAndDeflate,
        connectTimeout: 90, readTimeout: 90, retriesFailedConnections: true, maximumConnectionsPerHost: 8)
      configuration.waitsForConnectivity = true
      return configuration
    }

    /// Whether the client inflates compressed bodies, so Courier may advertise `Accept-Encoding`.
    public var decompresses: Bool {
      if case .disabled = decompression { return false }
      return true
    }

    /// The AsyncHTTPClient configuration that does what this configuration says; make your client from it.
    ///
    /// ```swift
    /// let httpClient = HTTPClient(eventLoopGroupProvider: .singleton,
    ///                             configuration: configuration.httpClientConfiguration)
    /// ```
    public var httpClientConfiguration: HTTPClient.Configuration {
      var configuration = HTTPClient.Configuration(
        redirectConfiguration: .disallow,
        timeout: HTTPClient.Configuration.Timeout(
          connect: TimeAmount(seconds: connectTimeout), read: readTimeout.map(TimeAmount.init(seconds:))),
        decompression: decompression)
      configuration.connectionPool.retryConnectionEstablishment = retriesFailedConnections
      configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = maximumConnectionsPerHost
      configuration.networkFrameworkWaitForConnectivity = waitsForConnectivity
      if let tlsConfiguration { configuration.tlsConfiguration = tlsConfiguration }
      return configuration
    }
  }
}
