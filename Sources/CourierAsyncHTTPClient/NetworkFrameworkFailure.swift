import Courier

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure Network.framework reported, reduced to what classifies it: the domain and code of its `NWError`
/// (`.posix(POSIXErrorCode)`, `.dns(DNSServiceErrorType)`, `.tls(OSStatus)`), which AsyncHTTPClient hands on as
/// they are or wrapped as `HTTPClient.NWPOSIXError` and `HTTPClient.NWTLSError`.
///
/// The classification reads only the numbers, so it is the same, and tested, everywhere; pulling them out of the
/// error values is the part that needs Network.framework (`NetworkFrameworkFailure+Network.swift`).
struct NetworkFrameworkFailure: Equatable, Sendable {
  enum Domain: Sendable {
    /// A POSIX `errno` value, this platform's.
    case posix
    /// A DNS-SD error (`kDNSServiceErr_…` in `<dns_sd.h>`).
    case dns
    /// A Security framework status (`errSSL…` in `<Security/SecureTransport.h>`, `errSec…` in `<Security/SecBase.h>`).
    case tls
  }

  var domain: Domain
  var code: Int32

  init(_ domain: Domain, code: Int32) {
    self.domain = domain
    self.code = code
  }

  /// What the failure means to a caller: the connection could not be made, took too long, was lost, or the TLS
  /// handshake failed.
  var kind: CourierError.Kind {
    switch domain {
    case .posix:
      return CourierError.kind(errno: code) ?? .transport
    case .dns:
      // The name did not resolve (no such name or record, no router, refused, denied by policy, …): offline or
      // unknown, as URLSession reports `cannotFindHost`.
      return code == Self.dnsTimeout ? .timeout : .noConnection
    case .tls:
      switch code {
      case Self.networkTimeout: return .timeout
      case Self.closedGraceful, Self.closedAbort, Self.closedNoNotify, Self.transportReset: return .connectionLost
      case -9899 ... -9800, Self.hostNameMismatch, Self.certificateExpired, Self.certificateNotValidYet,
        Self.notTrusted:
        return .tls
      default: return .transport
      }
    }
  }

  /// Which check of the TLS handshake failed, in words, for a TLS failure.
  func failedCheck(host: String) -> String? {
    guard domain == .tls, kind == .tls else { return nil }
    let failure: TLSFailure
    switch code {
    case Self.unknownRoot, Self.noRoot: failure = .unknownRoot
    case Self.chainInvalid, Self.notTrusted: failure = .untrusted
    // AsyncHTTPClient's verification of custom roots on Network.framework reports every refusal as this one status.
    case Self.badCertificate: failure = .rejected
    case Self.expired, Self.peerCertificateExpired, Self.certificateExpired: failure = .expired
    case Self.notYetValid, Self.certificateNotValidYet: failure = .notYetValid
    case Self.sslHostNameMismatch, Self.hostNameMismatch: failure = .wrongHost
    case Self.protocolError, Self.peerProtocolVersion: failure = .protocolVersion
    case Self.clientCertificateRequested, Self.certificateRequired: failure = .clientCertificate
    default: return "\(TLSFailure.handshake.words(host: host)) (OSStatus \(code))"
    }
    return failure.words(host: host)
  }

  // `<dns_sd.h>`
  static let dnsTimeout: Int32 = -65568  // kDNSServiceErr_Timeout
  // `<Security/SecureTransport.h>`
  static let protocolError: Int32 = -9800  // errSSLProtocol
  static let closedGraceful: Int32 = -9805  // errSSLClosedGraceful
  static let closedAbort: Int32 = -9806  // errSSLClosedAbort
  static let chainInvalid: Int32 = -9807  // errSSLXCertChainInvalid
  static let badCertificate: Int32 = -9808  // errSSLBadCert
  static let unknownRoot: Int32 = -9812  // errSSLUnknownRootCert
  static let noRoot: Int32 = -9813  // errSSLNoRootCert
  static let expired: Int32 = -9814  // errSSLCertExpired
  static let notYetValid: Int32 = -9815  // errSSLCertNotYetValid
  static let closedNoNotify: Int32 = -9816  // errSSLClosedNoNotify
  static let peerCertificateExpired: Int32 = -9828  // errSSLPeerCertExpired
  static let peerProtocolVersion: Int32 = -9836  // errSSLPeerProtocolVersion
  static let clientCertificateRequested: Int32 = -9842  // errSSLClientCertRequested
  static let sslHostNameMismatch: Int32 = -9843  // errSSLHostNameMismatch
  static let transportReset: Int32 = -9852  // errSSLTransportReset
  static let networkTimeout: Int32 = -9853  // errSSLNetworkTimeout
  static let certificateRequired: Int32 = -9863  // errSSLCertificateRequired
  // `<Security/SecBase.h>`, as a trust evaluation reports them
  static let hostNameMismatch: Int32 = -67602  // errSecHostNameMismatch
  static let certificateExpired: Int32 = -67818  // errSecCertificateExpired
  static let certificateNotValidYet: Int32 = -67819  // errSecCertificateNotValidYet
  static let notTrusted: Int32 = -67843  // errSecNotTrusted
}

extension CourierError {
  /// The kind of one of NIOTransportServices' own errors, by its type's name (the module is not there to import on
  /// every platform): an unresolvable endpoint is no connection, an invalid host or port an invalid URL.
  static func kind(networkFrameworkErrorNamed name: String) -> Kind? {
    switch name {
    case "NIOTransportServices.NIOTSErrors.UnableToResolveEndpoint": return .noConnection
    case "NIOTransportServices.NIOTSErrors.InvalidHostname", "NIOTransportServices.NIOTSErrors.InvalidPort":
      return .invalidURL
    case "NIOTransportServices.NIOTSErrors.NoCurrentConnection": return .connectionLost
    default: return nil
    }
  }
}
