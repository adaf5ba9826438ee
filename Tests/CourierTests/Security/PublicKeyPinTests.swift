import CourierTestSupport
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import Courier

/// The platform-neutral half of public-key pinning: a certificate's pin (the SHA-256 of its SubjectPublicKeyInfo),
/// which pins apply to a host, and the check of an evaluated chain, over certificates made at test time.
@Suite struct PublicKeyPinTests {
  /// A certificate issued by `issuer` (itself when `nil`) for `name`, with the given key.
  static func certificate(
    _ name: String, key: Certificate.PrivateKey, issuer: (name: String, key: Certificate.PrivateKey)? = nil,
    isAuthority: Bool = false, signatureAlgorithm: Certificate.SignatureAlgorithm = .ecdsaWithSHA256
  ) throws -> Data {
    let signer = issuer ?? (name, key)
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
      notValidBefore: Date().addingTimeInterval(-600), notValidAfter: Date().addingTimeInterval(3600),
      issuer: try DistinguishedName { CommonName(signer.name) }, subject: try DistinguishedName { CommonName(name) },
      signatureAlgorithm: signatureAlgorithm,
      extensions: try Certificate.Extensions {
        Critical(isAuthority ? BasicConstraints.isCertificateAuthority(maxPathLength: nil) : .notCertificateAuthority)
      },
      issuerPrivateKey: signer.key)
    var serializer = DER.Serializer()
    try serializer.serialize(certificate)
    return Data(serializer.serializedBytes)
  }

  static func pin(_ spkiDER: Data) -> String {
    Data(SHA256.hash(data: spkiDER)).base64EncodedString()
  }

  /// A root (P-384), an intermediate (P-256) it issued, and a leaf the intermediate issued, as DER, leaf first, with
  /// each one's pin computed from its key's own SubjectPublicKeyInfo.
  static func chain() throws -> (der: [Data], pins: (leaf: String, intermediate: String, root: String)) {
    let rootKey = P384.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let leafKey = P256.Signing.PrivateKey()
    let root = try certificate(
      "Pin Test Root", key: Certificate.PrivateKey(rootKey), isAuthority: true, signatureAlgorithm: .ecdsaWithSHA384)
    let intermediate = try certificate(
      "Pin Test Intermediate", key: Certificate.PrivateKey(intermediateKey),
      issuer: ("Pin Test Root", Certificate.PrivateKey(rootKey)), isAuthority: true,
      signatureAlgorithm: .ecdsaWithSHA384)
    let leaf = try certificate(
      "api.example.com", key: Certificate.PrivateKey(leafKey),
      issuer: ("Pin Test Intermediate", Certificate.PrivateKey(intermediateKey)))
    return (
      [leaf, intermediate, root],
      (
        pin(leafKey.publicKey.derRepresentation), pin(intermediateKey.publicKey.derRepresentation),
        pin(rootKey.publicKey.derRepresentation)
      )
    )
  }

  @Test func theDigestOfAP256OrP384KeyIsTheSHA256OfItsSubjectPublicKeyInfo() throws {
    let p256 = P256.Signing.PrivateKey()
    let p384 = P384.Signing.PrivateKey()
    let p256Certificate = try Self.certificate("p256.example.com", key: Certificate.PrivateKey(p256))
    let p384Certificate = try Self.certificate(
      "p384.example.com", key: Certificate.PrivateKey(p384), signatureAlgorithm: .ecdsaWithSHA384)
    // `derRepresentation` is the key's SubjectPublicKeyInfo, made by Crypto rather than by the certificate parser.
    #expect(
      try ServerTrustPolicy.publicKeyPin(certificateDER: p256Certificate)
        == Self.pin(p256.publicKey.derRepresentation))
    #expect(
      try ServerTrustPolicy.publicKeyPin(certificateDER: p384Certificate)
        == Self.pin(p384.publicKey.derRepresentation))
  }

  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: OpenSSL.path), "needs the openssl tool"),
    .hangGuard)
  func theDigestOfAnRSAKeyEqualsOpenSSLs() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-pin-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
    try OpenSSL.run(
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=rsa.example.com", "-days", "1",
      "-keyout", file("key.pem"), "-outform", "DER", "-out", file("certificate.der"))
    try OpenSSL.run(
      "x509", "-inform", "DER", "-in", file("certificate.der"), "-pubkey", "-noout", "-out", file("key.pub"))
    try OpenSSL.run("pkey", "-pubin", "-in", file("key.pub"), "-outform", "DER", "-out", file("spki.der"))
    let certificate = try Data(contentsOf: URL(fileURLWithPath: file("certificate.der")))
    let spki = try Data(contentsOf: URL(fileURLWithPath: file("spki.der")))
    #expect(spki.count > 256, "a 2048-bit modulus and its header")
    #expect(try ServerTrustPolicy.publicKeyPin(certificateDER: certificate) == Self.pin(spki))
  }

  @Test func anExactHostMatchesOnlyItselfWithoutCaseOrTrailingDot() {
    let policy = ServerTrustPolicy.system.pinning("API.example.com", spkiSHA256: ["A"])
    #expect(policy.pins(forHost: "api.example.com") == ["A"])
    #expect(policy.pins(forHost: "Api.Example.COM.") == ["A"])
    #expect(policy.pins(forHost: "example.com") == nil)
    #expect(policy.pins(forHost: "v2.api.example.com") == nil)
    #expect(policy.pins(forHost: "api.example.org") == nil)
  }

  @Test func aWildcardCoversExactlyOneLabel() {
    let policy = ServerTrustPolicy(pinnedKeys: ["*.example.com": ["W"], "special.example.com": ["S"]])
    #expect(policy.pins(forHost: "a.example.com") == ["W"])
    #expect(policy.pins(forHost: "A.EXAMPLE.COM") == ["W"])
    #expect(policy.pins(forHost: "example.com") == nil, "the wildcard does not cover its parent")
    #expect(policy.pins(forHost: "a.b.example.com") == nil, "nor a host two labels below")
    #expect(policy.pins(forHost: ".example.com") == nil, "nor an empty label")
    #expect(policy.pins(forHost: "aexample.com") == nil)
    #expect(policy.pins(forHost: "special.example.com") == ["S"], "a host's own entry wins")
    let addresses = ServerTrustPolicy(pinnedKeys: ["*.0.0.1": ["W"], "*.1": ["W"], "10.0.0.1": ["I"]])
    #expect(addresses.pins(forHost: "127.0.0.1") == nil, "no wildcard covers an IP address")
    #expect(addresses.pins(forHost: "10.0.0.1") == ["I"])
  }

  @Test func aChainPassesWhenItsLeafIntermediateOrRootIsPinned() throws {
    let (chain, pins) = try Self.chain()
    for pin in [pins.leaf, pins.intermediate, pins.root] {
      let exact = ServerTrustPolicy.system.pinning("api.example.com", spkiSHA256: [pin, Self.pin(Data("backup".utf8))])
      #expect(throws: Never.self) { try exact.checkPins(host: "api.example.com", chainDER: chain) }
      let wildcard = ServerTrustPolicy.system.pinning("*.example.com", spkiSHA256: [pin])
      #expect(throws: Never.self) { try wildcard.checkPins(host: "api.example.com", chainDER: chain) }
    }
    // A host without pins is not checked, whatever it presents.
    let other = ServerTrustPolicy.system.pinning("other.example.org", spkiSHA256: [Self.pin(Data("x".utf8))])
    #expect(throws: Never.self) { try other.checkPins(host: "api.example.com", chainDER: chain) }
  }

  @Test func aChainWithoutAPinnedKeyIsATLSErrorNamingTheHostAndThePinCheck() throws {
    let (chain, pins) = try Self.chain()
    let backup = Self.pin(Data("a key the server does not have".utf8))
    let policy = ServerTrustPolicy.system.pinning("*.example.com", spkiSHA256: [backup])
    let error = #expect(throws: CourierError.self) { try policy.checkPins(host: "api.example.com", chainDER: chain) }
    #expect(error?.kind == .tls)
    #expect(error?.detail.contains("api.example.com") == true, "\(String(describing: error?.detail))")
    #expect(error?.detail.contains("pin") == true, "\(String(describing: error?.detail))")
    #expect(error?.detail.contains(pins.leaf) == true, "it lists the keys the server presented")
    // An empty chain has no pinned key either.
    #expect(throws: CourierError.self) { try policy.checkPins(host: "api.example.com", chainDER: []) }
  }

  @Test func garbageIsATypedErrorAndNeverAPin() throws {
    let error = #expect(throws: CourierError.self) {
      _ = try ServerTrustPolicy.publicKeyPin(certificateDER: Data("not a certificate".utf8))
    }
    #expect(error?.kind == .tls)
    let (chain, pins) = try Self.chain()
    let policy = ServerTrustPolicy.system.pinning("api.example.com", spkiSHA256: [pins.intermediate])
    // An unreadable certificate is passed over: the intermediate's key still matches.
    #expect(throws: Never.self) {
      try policy.checkPins(host: "api.example.com", chainDER: [Data([0x30, 0x03, 0x02, 0x01, 0x00])] + chain)
    }
    let garbageOnly = #expect(throws: CourierError.self) {
      try policy.checkPins(host: "api.example.com", chainDER: [Data([0xFF, 0x00])])
    }
    #expect(garbageOnly?.kind == .tls)
    #expect(garbageOnly?.detail.contains("unreadable") == true, "\(String(describing: garbageOnly?.detail))")
  }

  @Test func aPolicyIsValidatedBeforeUse() throws {
    let (chain, pins) = try Self.chain()
    #expect(throws: Never.self) {
      try ServerTrustPolicy(certificates: [chain[2]], trustsSystemRoots: false)
        .pinning("api.example.com", spkiSHA256: [pins.leaf]).validate()
    }
    let root = #expect(throws: CourierError.self) {
      try ServerTrustPolicy(certificates: [chain[2], Data("garbage".utf8)]).validate()
    }
    #expect(root?.kind == .tls)
    #expect(root?.detail.contains("Root certificate 2") == true, "\(String(describing: root?.detail))")
    for bad in ["AAAA", "not base64!", Data(repeating: 1, count: 20).base64EncodedString()] {
      let pin = #expect(throws: CourierError.self) {
        try ServerTrustPolicy.system.pinning("api.example.com", spkiSHA256: [bad]).validate()
      }
      #expect(pin?.kind == .tls)
      #expect(pin?.detail.contains("api.example.com") == true)
    }
  }

  @Test func urlSessionTransportTakesAPolicyWhereItCanEnforceIt() throws {
    let (chain, pins) = try Self.chain()
    let pinned = ServerTrustPolicy(certificates: [chain[2]]).pinning("*.example.com", spkiSHA256: [pins.root])
    #if canImport(Security)
    #expect(throws: Never.self) { _ = try URLSessionTransport(serverTrust: pinned) }
    let garbage = #expect(throws: CourierError.self) {
      _ = try URLSessionTransport(serverTrust: .system.pinning("api.example.com", spkiSHA256: ["AAAA"]))
    }
    #expect(garbage?.kind == .tls)
    #else
    // FoundationNetworking has no hook to evaluate a server's certificate: refused rather than run unpinned.
    let error = #expect(throws: CourierError.self) { _ = try URLSessionTransport(serverTrust: pinned) }
    #expect(error?.kind == .tls)
    #expect(error?.detail.contains("URLSession on Linux") == true)
    #endif
  }
}

/// The `openssl` tool, to compute what Courier computes another way.
enum OpenSSL {
  static let path = "/usr/bin/openssl"

  static func run(_ arguments: String...) throws {
    let (status, output) = ChildProcess.runBlocking(path, arguments)
    guard status == 0 else {
      throw CourierError(.transport, "openssl \(arguments.joined(separator: " ")) exited with \(status): \(output)")
    }
  }
}
