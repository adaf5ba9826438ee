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
/// What each transport enforces:
///
/// | | Custom roots | Custom and system roots | Pins |
/// |---|---|---|---|
/// | `URLSessionTransport` on Apple platforms | yes | yes | yes |
/// | `URLSessionTransport` on Linux | refused | refused | refused |
/// | `AsyncHTTPClientTransport` on Linux (SwiftNIO SSL) | yes | yes | refused |
/// | `AsyncHTTPClientTransport` on Apple platforms (Network.framework) | yes | refused | refused |
///
/// A pin is checked against the chain the platform has evaluated against the policy's roots, leaf to root: any
/// certificate of it whose key is pinned for the host passes, so pin your CA's intermediate key, or the leaf's key and
/// a backup. `*.example.com` pins every host one label below `example.com` (see ``pinnedKeys``).
///
/// ```swift
/// let policy = try ServerTrustPolicy.roots(pem: privateCAPEM)          // only certificates issued by this CA
/// let transport = try URLSessionTransport(serverTrust: policy)
/// ```
public struct ServerTrustPolicy: Sendable, Hashable {
  /// DER-encoded certificates a server's chain may lead to (a private CA); the system's roots count too when
  /// ``trustsSystemRoots``.
  public var certificates: [Data]
  /// Whether the system's trusted roots count too (`true` by default); `false` trusts ``certificates`` only.
  public var trustsSystemRoots: Bool
  /// Public-key pins by host (lowercased): the SHA-256 digests of the certificate's DER-encoded
  /// SubjectPublicKeyInfo, base64-encoded (as in HPKP and
  /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`), of
  /// which a chain must present one. List a backup key too. Hosts without an entry are not pinned.
  ///
  /// `*.example.com` pins the hosts one label below `example.com` (`api.example.com`), as a certificate's wildcard
  /// names them, not `example.com` itself, nor `v2.api.example.com` (TrustKit's "include subdomains" covers every
  /// depth; list `*.api.example.com` too for that). A host's own entry wins over a wildcard's; IP addresses match
  /// only their own entry.
  public private(set) var pinnedKeys: [String: Set<String>]

  /// A policy trusting `certificates`, and the system's roots when `trustsSystemRoots`, with `pinnedKeys` by host.
  public init(certificates: [Data] = [], trustsSystemRoots: Bool = true, pinnedKeys: [String: [String]] = [:]) {
    self.certificates = certificates
    self.trustsSystemRoots = trustsSystemRoots
    self.pinnedKeys = [:]
    for (host, keys) in pinnedKeys { self.pinnedKeys[host.lowercased(), default: []].formUnion(keys) }
  }

  /// The system's roots and no pins: what every transport does by default.
  public static var system: ServerTrustPolicy { ServerTrustPolicy() }

  /// Trusts the certificates in `pem` (one or more `BEGIN CERTIFICATE` blocks), and the system's roots as well
  /// when `includingSystemRoots`.
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/tls`` when `pem` holds no certificate or a block is not base64.
  public static func roots(pem: String, includingSystemRoots: Bool = false) throws -> ServerTrustPolicy {
    ServerTrustPolicy(certificates: try derCertificates(pem: pem), trustsSystemRoots: includingSystemRoots)
  }

  /// This policy with `host` pinned to `spkiSHA256` (added to any keys it already had).
  public func pinning(_ host: String, spkiSHA256: [String]) -> ServerTrustPolicy {
    var policy = self
    policy.pinnedKeys[host.lowercased(), default: []].formUnion(spkiSHA256)
    return policy
  }

  /// Whether this is the system's default, which every transport enforces.
  public var isSystemDefault: Bool { certificates.isEmpty && trustsSystemRoots && pinnedKeys.isEmpty }

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

/// A transport that checks servers against a ``ServerTrustPolicy``: what a background session of the same client must
/// check them against too.
package protocol ServerTrustChecking {
  /// The policy the transport checks servers against.
  var serverTrustPolicy: ServerTrustPolicy { get }
}
