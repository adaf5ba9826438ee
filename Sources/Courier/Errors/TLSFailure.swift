import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which check of a TLS handshake failed, read from what a transport's engine reported (a `URLError` code, libcurl's
/// or OpenSSL's message, SwiftNIO SSL's error), so that every transport names the host and the check in the same
/// words.
///
/// The classification reads only codes and text, so it is the same, and tested, on every platform.
package enum TLSFailure: Sendable, Equatable, CaseIterable {
  /// The chain leads to no trusted root.
  case unknownRoot
  /// The server's own certificate is self-signed and not trusted.
  case selfSigned
  /// The certificate's validity ended.
  case expired
  /// The certificate's validity has not begun.
  case notYetValid
  /// The certificate is expired or not yet valid, the engine did not say which.
  case outsideValidity
  /// The chain was not trusted, the engine did not say why.
  case untrusted
  /// The engine refused the certificate without saying which check failed (Network.framework's `errSSLBadCert`
  /// after AsyncHTTPClient's own verification of custom roots).
  case rejected
  /// The certificate does not name the host.
  case wrongHost
  /// The server answered something that is not TLS.
  case notTLS
  /// The server offered no TLS version the client accepts.
  case protocolVersion
  /// The server asked for a client certificate, or refused the one it got.
  case clientCertificate
  /// Any other failure of the handshake.
  case handshake

  /// The failed check, in words, for the server `host`: the part of the detail every transport says the same way.
  package func words(host: String) -> String {
    switch self {
    case .unknownRoot: return "its certificate was not trusted (issued by an unknown root)"
    case .selfSigned: return "its certificate was not trusted (self-signed)"
    case .expired: return "its certificate was not trusted (expired)"
    case .notYetValid: return "its certificate was not trusted (not yet valid)"
    case .outsideValidity: return "its certificate was not trusted (expired or not yet valid)"
    case .untrusted:
      return "its certificate was not trusted (self-signed, issued by an unknown root, expired, or not yet valid)"
    case .rejected:
      return "its certificate was not trusted (self-signed, issued by an unknown root, expired, or not yet valid) "
        + "or is not valid for \(host)"
    case .wrongHost: return "its certificate is not valid for \(host)"
    case .notTLS: return "it does not speak TLS on this port"
    case .protocolVersion: return "it does not speak a TLS version this client accepts on this port"
    case .clientCertificate: return "it asks for a client certificate"
    case .handshake: return "the TLS handshake failed"
    }
  }

  /// The detail of a ``CourierError/Kind-swift.struct/tls`` error: `The secure connection to <host> failed:
  /// <check> (<what the engine said>)`.
  package func detail(host: String, reported: String) -> String {
    "The secure connection to \(host) failed: \(words(host: host)) (\(reported))"
  }

  /// The host a request's TLS connection was for: its authority without the port (`127.0.0.1`, `[::1]`), or
  /// `the server` when the request is not known.
  package static func host(of request: HTTPRequest?) -> String {
    guard let authority = request?.authority, !authority.isEmpty else { return "the server" }
    if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
      return String(authority[...end])
    }
    guard let colon = authority.lastIndex(of: ":") else { return authority }
    return String(authority[..<colon])
  }

  /// The failed check a `URLError` reports by its code, or by its message when the code says no more
  /// (FoundationNetworking reports libcurl's TLS failures as `URLError.unknown` with libcurl's text); `nil` when it is
  /// no TLS failure.
  ///
  /// Apple's URLSession reports a certificate it does not trust — also one for another host, or a self-signed one — as
  /// `serverCertificateUntrusted` (-1202) with a message in the user's language: the check is then read from the code
  /// of the trust evaluation's error (`trustErrorCode`, an `errSec…` status), and without one the failure names both
  /// the chain and the host.
  package init?(code: URLError.Code, message: String, trustErrorCode: Int? = nil) {
    if let trustErrorCode, code == .serverCertificateUntrusted {
      self = Self(securityCode: trustErrorCode)
      return
    }
    switch code {
    case .serverCertificateHasUnknownRoot: self = .unknownRoot
    case .serverCertificateHasBadDate: self = Self(message: message) ?? .outsideValidity
    case .serverCertificateNotYetValid: self = .notYetValid
    case .serverCertificateUntrusted: self = Self(message: message) ?? .rejected
    case .clientCertificateRejected, .clientCertificateRequired: self = .clientCertificate
    case .secureConnectionFailed: self = Self(message: message) ?? .handshake
    case .unknown:
      guard let failure = Self(message: message) else { return nil }
      self = failure
    default: return nil
    }
  }

  /// The failed check a Security framework trust evaluation's error code names (`errSecCertificateExpired`,
  /// `errSecCertificateNotValidYet`, `errSecHostNameMismatch`, `errSecNotTrusted`, `errSecCreateChainFailed`, …).
  package init(securityCode: Int) {
    switch securityCode {
    // errSecCertificateExpired: the SSL policy's validity check reports it for a certificate not yet valid too.
    case -67818: self = .outsideValidity
    case -67819: self = .notYetValid  // errSecCertificateNotValidYet
    case -67602: self = .wrongHost  // errSecHostNameMismatch
    default: self = .untrusted  // errSecNotTrusted and the rest: the evaluation does not say which check
    }
  }

  /// The failed check an engine's message reports (libcurl's `SSL certificate problem: …` and `SSL: … host name`,
  /// OpenSSL's `SSL routines` reasons, SwiftNIO SSL's errors); `nil` when the message is not about TLS.
  package init?(message: String) {
    let text = message.lowercased()
    func has(_ words: String...) -> Bool { words.contains { text.contains($0) } }
    if has(
      "no alternative certificate subject name matches", "failedtovalidatehostname", "hostname_mismatch",
      "hostname mismatch")
      || (text.contains("certificate subject name") && text.contains("does not match target host"))
    {
      self = .wrongHost
    } else if has("self signed certificate in certificate chain", "self-signed certificate in certificate chain") {
      self = .unknownRoot  // the chain ends in a root nobody trusts
    } else if has(
      "unable to get local issuer certificate", "unable to get issuer certificate",
      "unable to verify the first certificate")
    {
      self = .unknownRoot
    } else if has("self signed certificate", "self-signed certificate") {
      self = .selfSigned
    } else if has("certificate has expired", "certificate for this server has expired") {
      self = .expired
    } else if has("certificate is not yet valid") {
      self = .notYetValid
    } else if has("ssl certificate problem", "certificate_verify_failed", "certificate verify failed") {
      self = .untrusted
    } else if has("wrong_version_number", "wrong version number", "packet_length_too_long", "packet length too long")
      || (Self.isAboutTLS(text) && has("http_request", "http request"))
    {
      self = .notTLS
    } else if Self.isAboutTLS(text) {
      self = .handshake
    } else {
      return nil
    }
  }

  /// Whether lowercased `text` is an error of a TLS library (`SSL routines`, `OpenSSL/3.0: …`, `SSL: …`, NIOSSL's
  /// types) or names TLS.
  private static func isAboutTLS(_ text: String) -> Bool {
    text.contains("ssl routines") || text.hasPrefix("openssl") || text.hasPrefix("ssl:")
      || (text.contains("nio") && text.contains("ssl")) || text.contains("tls")
  }
}
