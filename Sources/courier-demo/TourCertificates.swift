import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority the tour makes when it starts, and the certificate it issues to the demo server on
/// 127.0.0.1: nothing is read from disk and nothing outlives the process.
struct TourCertificateAuthority {
  private let key = P256.Signing.PrivateKey()
  private let certificate: Certificate

  init() throws {
    let name = try DistinguishedName { CommonName("Courier Tour CA") }
    certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
      notValidBefore: Date().addingTimeInterval(-300), notValidAfter: Date().addingTimeInterval(3600),
      issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
      },
      issuerPrivateKey: Certificate.PrivateKey(key))
  }

  /// The CA's certificate, to trust with `ServerTrustPolicy.roots(pem:)`.
  var pem: String { get throws { try certificate.serializeAsPEM().pemString } }

  /// A server certificate for 127.0.0.1, its key, and the base64 SHA-256 of its SubjectPublicKeyInfo (a pin).
  func issueForLoopback() throws -> (chainPEM: String, keyPEM: String, spkiSHA256: String) {
    let serverKey = P256.Signing.PrivateKey()
    let leaf = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(serverKey.publicKey),
      notValidBefore: Date().addingTimeInterval(-300), notValidAfter: Date().addingTimeInterval(3600),
      issuer: certificate.subject, subject: try DistinguishedName { CommonName("127.0.0.1") },
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([.serverAuth])
        SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
      },
      issuerPrivateKey: Certificate.PrivateKey(key))
    // A P-256 public key's DER representation is its SubjectPublicKeyInfo.
    let pin = Data(SHA256.hash(data: serverKey.publicKey.derRepresentation)).base64EncodedString()
    return (try leaf.serializeAsPEM().pemString, serverKey.pemRepresentation, pin)
  }
}
