import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority made for one test, and the server certificates it issues: valid, for another host,
/// expired, or self-signed.
package struct TestAuthority: Sendable {
  /// The authority's signing key.
  package let key = P256.Signing.PrivateKey()
  /// The authority's self-signed root certificate.
  package let certificate: Certificate

  /// A server certificate and its key.
  package typealias Issued = (certificate: Certificate, key: P256.Signing.PrivateKey)

  /// `127.0.0.1` as a subject alternative name.
  package static let loopback = GeneralName.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))

  /// A new root named `name`, valid from an hour ago to an hour from now.
  package init(name: String = "Courier Test CA") throws {
    let subject = try DistinguishedName { CommonName(name) }
    certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(),
      publicKey: Certificate.PublicKey(key.publicKey),
      notValidBefore: Date().addingTimeInterval(-3600), notValidAfter: Date().addingTimeInterval(3600),
      issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
      },
      issuerPrivateKey: Certificate.PrivateKey(key))
  }

  /// The root certificate as PEM text.
  package var pem: String { get throws { try certificate.serializeAsPEM().pemString } }

  /// A server certificate for `names` (IP addresses or DNS names), valid from `notBefore` to `notAfter`.
  package func issue(
    for names: [GeneralName] = [loopback],
    notBefore: Date = Date().addingTimeInterval(-600), notAfter: Date = Date().addingTimeInterval(3600)
  ) throws -> Issued {
    let serverKey = P256.Signing.PrivateKey()
    let leaf = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(),
      publicKey: Certificate.PublicKey(serverKey.publicKey),
      notValidBefore: notBefore, notValidAfter: notAfter,
      issuer: certificate.subject, subject: try DistinguishedName { CommonName("courier-test-server") },
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([.serverAuth])
        SubjectAlternativeNames(names)
      },
      issuerPrivateKey: Certificate.PrivateKey(key))
    return (leaf, serverKey)
  }

  /// A server certificate for `names` that signs itself, issued by no authority.
  package static func selfSigned(for names: [GeneralName] = [loopback]) throws -> Issued {
    let key = P256.Signing.PrivateKey()
    let subject = try DistinguishedName { CommonName("courier-self-signed-server") }
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(),
      publicKey: Certificate.PublicKey(key.publicKey),
      notValidBefore: Date().addingTimeInterval(-600), notValidAfter: Date().addingTimeInterval(3600),
      issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
        try ExtendedKeyUsage([.serverAuth])
        SubjectAlternativeNames(names)
      },
      issuerPrivateKey: Certificate.PrivateKey(key))
    return (certificate, key)
  }
}
