import Crypto
import Foundation
import SwiftASN1
import X509

/// The checks of a ``ServerTrustPolicy`` that need no platform: which pins apply to a host, and whether a chain the
/// platform has already evaluated presents one of them. A transport evaluates the chain against the policy's roots
/// with its TLS engine, then hands each certificate's DER here.
extension ServerTrustPolicy {
  /// The pins that apply to `host`: its own entry, or else the entry of the wildcard that covers it; `nil` when the
  /// host is not pinned.
  ///
  /// A wildcard stands for exactly one label, as in a certificate's names (RFC 6125): `*.example.com` covers
  /// `api.example.com`, but neither `example.com` nor `v2.api.example.com` (list `*.api.example.com` for those), and
  /// never an IP address. An exact entry wins over a wildcard. Hosts compare without case and without a trailing dot.
  package func pins(forHost host: String) -> Set<String>? {
    var host = host.lowercased()
    if host.hasSuffix(".") { host.removeLast() }
    if let pins = pinnedKeys[host] { return pins }
    guard !Self.isIPAddress(host), let dot = host.firstIndex(of: "."), dot != host.startIndex else { return nil }
    return pinnedKeys["*" + host[dot...]]
  }

  /// Checks that the chain `host` presented, already evaluated against the policy's roots, holds a certificate
  /// whose public key is pinned for the host; does nothing for a host without pins.
  ///
  /// - Parameter chainDER: The chain's certificates, DER-encoded, leaf first.
  /// - Throws: ``CourierError/Kind-swift.struct/tls``, naming the host and the pin check, when no certificate's key
  ///   is pinned (certificates that cannot be read count as unpinned).
  package func checkPins(host: String, chainDER: [Data]) throws(CourierError) {
    guard let pins = pins(forHost: host) else { return }
    var presented: [String] = []
    for der in chainDER {
      guard let pin = try? Self.publicKeyPin(certificateDER: der) else {
        presented.append("an unreadable certificate")
        continue
      }
      if pins.contains(pin) { return }
      presented.append(pin)
    }
    throw CourierError(
      .tls,
      "The public-key pin check failed for \(host): none of the \(chainDER.count) certificates it presented has a "
        + "pinned key (presented SPKI SHA-256: \(presented.joined(separator: ", ")))")
  }

  /// The pin of the certificate `der`: the SHA-256 digest of its DER-encoded SubjectPublicKeyInfo, base64-encoded.
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/tls`` when `der` is not a certificate, or its key is of a kind
  ///   Courier cannot read (RSA, P-256, P-384, P-521 and Ed25519 keys are read).
  package static func publicKeyPin(certificateDER der: Data) throws(CourierError) -> String {
    do {
      let certificate = try Certificate(derEncoded: Array(der))
      var serializer = DER.Serializer()
      try serializer.serialize(certificate.publicKey)
      return Data(SHA256.hash(data: serializer.serializedBytes)).base64EncodedString()
    } catch {
      throw CourierError(.tls, "A certificate's public key could not be read: \(error)", underlyingError: error)
    }
  }

  /// Checks that the policy can be enforced as written: every root is a certificate, every pin a base64 SHA-256
  /// digest.
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/tls`` naming the first root or pin that is not.
  package func validate() throws(CourierError) {
    for (index, der) in certificates.enumerated() {
      do {
        _ = try Certificate(derEncoded: Array(der))
      } catch {
        throw CourierError(
          .tls, "Root certificate \(index + 1) is not a valid DER certificate: \(error)", underlyingError: error)
      }
    }
    for (host, pins) in pinnedKeys.sorted(by: { $0.key < $1.key }) {
      for pin in pins.sorted() where Data(base64Encoded: pin)?.count != SHA256.byteCount {
        throw CourierError(.tls, "The pin \"\(pin)\" for \(host) is not a base64-encoded SHA-256 digest")
      }
    }
  }

  /// Whether `host` is an IPv4 or IPv6 literal, which no wildcard covers.
  private static func isIPAddress(_ host: String) -> Bool {
    host.contains(":") || host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
  }
}
