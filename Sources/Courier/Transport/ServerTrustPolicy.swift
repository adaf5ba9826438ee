import Foundation

/// Which servers a transport trusts over TLS: the system's roots (the default), certificates of your own (a private
/// CA), and public-key pins per host.
///
/// Hand a policy to the transport when you create it (``URLSessionTransport/init(configuration:serverTrust:)``, or
/// `AsyncHTTPClientTransport.Configuration.trust(_:)`). A transport that cannot enforce a policy refuses it with a
/// ``CourierError/Kind-swift.struct/tls`` error at creation: it never runs with less than you asked for. A server
/// that fails the policy fails the call at once, with a ``CourierError/Kind-swift.struct/tls`` error naming the host
/// and the check that failed.
///
/// ```swift
/// let policy = try ServerTrustPolicy.roots(pem: privateCAPEM)          // only certificates issued by this CA
/// var configuration = AsyncHTTPClientTransport.Configuration()
/// try configuration.trust(policy)
/// ```
public struct ServerTrustPolicy: Sendable, Hashable {
  /// The certificates a server's chain must lead to.
  public enum Roots: Sendable, Hashable {
    /// The system's trusted roots.
    case system
    /// Only these DER-encoded certificates (a private CA); the system's roots are not trusted.
    case only([Data])
    /// The system's roots and these DER-encoded certificates.
    case systemAnd([Data])
  }

  /// The public keys a host may present: SHA-256 digests of the certificate's DER-encoded SubjectPublicKeyInfo,
  /// base64-encoded (as in HPKP and `openssl … | openssl dgst -sha256 -binary | base64`). List a backup key too.
  public struct Pins: Sendable, Hashable {
    /// The host the pins apply to, or `*.example.com` for every subdomain of `example.com`.
    public var host: String
    /// The base64 SHA-256 digests; a chain with any one of them passes.
    public var spkiSHA256: Set<String>

    /// Pins for `host`.
    public init(host: String, spkiSHA256: [String]) {
      self.host = host.lowercased()
      self.spkiSHA256 = Set(spkiSHA256)
    }
  }

  /// The roots a chain must lead to.
  public var roots: Roots
  /// The pins, checked after the chain; hosts no entry matches are not pinned.
  public var pins: [Pins]

  /// A policy with `roots` and `pins`.
  public init(roots: Roots = .system, pins: [Pins] = []) {
    self.roots = roots
    self.pins = pins
  }

  /// The system's roots and no pins: what every transport does by default.
  public static var system: ServerTrustPolicy { ServerTrustPolicy() }

  /// Trusts the certificates in `pem` (one or more `BEGIN CERTIFICATE` blocks), and the system's roots as well
  /// when `includingSystemRoots`.
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/tls`` when `pem` holds no certificate or a block is not base64.
  public static func roots(pem: String, includingSystemRoots: Bool = false) throws -> ServerTrustPolicy {
    let certificates = try derCertificates(pem: pem)
    return ServerTrustPolicy(roots: includingSystemRoots ? .systemAnd(certificates) : .only(certificates))
  }

  /// Whether this is the system's default, which every transport enforces.
  public var isSystemDefault: Bool { roots == .system && pins.isEmpty }

  /// The DER bytes of each `BEGIN CERTIFICATE` block of `pem`.
  static func derCertificates(pem: String) throws -> [Data] {
    var certificates: [Data] = []
    var base64: String?
    for rawLine in pem.split(whereSeparator: \.isNewline) {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line == "-----BEGIN CERTIFICATE-----" {
        base64 = ""
      } else if line == "-----END CERTIFICATE-----", let text = base64 {
        guard let der = Data(base64Encoded: text), !der.isEmpty else {
          throw CourierError(.tls, "Certificate \(certificates.count + 1) of the PEM text is not valid base64")
        }
        certificates.append(der)
        base64 = nil
      } else if base64 != nil {
        base64! += line
      }
    }
    guard !certificates.isEmpty else {
      throw CourierError(.tls, "The PEM text holds no certificate (no -----BEGIN CERTIFICATE----- block)")
    }
    return certificates
  }
}
