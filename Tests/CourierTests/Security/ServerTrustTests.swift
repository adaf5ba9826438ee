import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import CourierTesting
import Crypto
import Foundation
import Testing
import X509

/// Server trust over TLS, against a TLS server on 127.0.0.1 in the test process whose certificates are made at test
/// time (`TestAuthority`, `TLSServer`): custom roots, an unknown root, an expired certificate, a certificate for
/// another host, public-key pins (over URLSession on Apple platforms), and policies a transport cannot enforce,
/// refused at creation.
@Suite(.hangGuard) struct ServerTrustTests {
  /// Sends `GET /hello` over an AsyncHTTPClient transport that trusts by `policy`.
  static func get(_ url: URL, trusting policy: ServerTrustPolicy) async throws -> String {
    var configuration = AsyncHTTPClientTransport.Configuration()
    try configuration.trust(policy)
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration.httpClientConfiguration)
    let client = APIClient(baseURL: url.deletingLastPathComponent()) {
      $0.transport = AsyncHTTPClientTransport(client: http, configuration: configuration)
    }
    do {
      let data = try await client.value(Endpoint<Data>.get(url.absoluteString).timeout(600))
      try await http.shutdown()
      return String(decoding: data, as: UTF8.self)
    } catch {
      try await http.shutdown()
      throw error
    }
  }

  /// Runs `body` against a TLS server presenting `issued`, and stops it afterwards.
  static func withServer(
    _ issued: TestAuthority.Issued, _ body: (TLSServer) async throws -> Void
  ) async throws {
    let server = try await TLSServer(issued)
    do {
      try await body(server)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  @Test func aServerIssuedByATrustedCustomRootIsAnswered() async throws {
    let authority = try TestAuthority()
    let trusted = try ServerTrustPolicy.roots(pem: authority.pem)
    try await Self.withServer(try authority.issue()) { server in
      let both = try ServerTrustPolicy.roots(pem: authority.pem, includingSystemRoots: true)
      let answer = try await Self.get(server.url, trusting: trusted)
      #expect(answer == "ok")
      let answerWithSystemRoots = try await Self.get(server.url, trusting: both)
      #expect(answerWithSystemRoots == "ok")
    }
  }

  @Test func anUnknownRootIsATLSErrorAtOnce() async throws {
    let authority = try TestAuthority()
    try await Self.withServer(try authority.issue()) { server in
      let error = await #expect(throws: CourierError.self) { try await Self.get(server.url, trusting: .system) }
      #expect(error?.kind == .tls)
      #expect(error?.detail.contains("127.0.0.1") == true, "\(String(describing: error?.detail))")
      #expect(error?.detail.contains("not trusted") == true, "\(String(describing: error?.detail))")
      // Another CA's root does not help either.
      let other = try ServerTrustPolicy.roots(pem: TestAuthority(name: "Someone Else's CA").pem)
      let second = await #expect(throws: CourierError.self) {
        try await Self.get(server.url, trusting: other)
      }
      #expect(second?.kind == .tls)
    }
  }

  @Test func anExpiredCertificateIsATLSError() async throws {
    let authority = try TestAuthority()
    let trusted = try ServerTrustPolicy.roots(pem: authority.pem)
    let expired = try authority.issue(
      notBefore: Date().addingTimeInterval(-7200), notAfter: Date().addingTimeInterval(-3600))
    try await Self.withServer(expired) { server in
      let error = await #expect(throws: CourierError.self) {
        try await Self.get(server.url, trusting: trusted)
      }
      #expect(error?.kind == .tls)
      #expect(error?.detail.contains("not trusted") == true, "\(String(describing: error?.detail))")
    }
  }

  @Test func aCertificateForAnotherHostIsATLSError() async throws {
    let authority = try TestAuthority()
    let trusted = try ServerTrustPolicy.roots(pem: authority.pem)
    try await Self.withServer(try authority.issue(for: [.dnsName("api.example.com")])) { server in
      let error = await #expect(throws: CourierError.self) {
        try await Self.get(server.url, trusting: trusted)
      }
      #expect(error?.kind == .tls)
      #expect(error?.detail.contains("not valid for 127.0.0.1") == true, "\(String(describing: error?.detail))")
    }
  }

  @Test func policiesATransportCannotEnforceAreRefusedAtCreation() throws {
    let pinned = ServerTrustPolicy.system.pinning("*.Example.com", spkiSHA256: ["AAAA", "BBBB"])
    var configuration = AsyncHTTPClientTransport.Configuration()
    let pins = #expect(throws: CourierError.self) { try configuration.trust(pinned) }
    #expect(pins?.kind == .tls)
    #expect(pins?.detail.contains("*.example.com") == true, "hosts are pinned lowercased")
    #expect(pinned.pinnedKeys == ["*.example.com": ["AAAA", "BBBB"]])
    #expect(configuration.serverTrust == .system, "a refused policy leaves the configuration as it was")
    let garbage = #expect(throws: CourierError.self) {
      _ = try URLSessionTransport(
        serverTrust: ServerTrustPolicy(certificates: [Data([0x30])], trustsSystemRoots: false))
    }
    #expect(garbage?.kind == .tls, "refused on Linux, not a certificate on Apple platforms")
    #expect(throws: Never.self) { _ = try URLSessionTransport(serverTrust: .system) }
  }

  #if canImport(Security)
  /// Sends `GET /hello` over a URLSession transport that trusts by `policy`.
  static func getOverURLSession(_ url: URL, trusting policy: ServerTrustPolicy) async throws -> String {
    let transport = try URLSessionTransport(serverTrust: policy)
    let client = APIClient(baseURL: url.deletingLastPathComponent()) { $0.transport = transport }
    let data = try await client.value(Endpoint<Data>.get(url.absoluteString).timeout(600))
    return String(decoding: data, as: UTF8.self)
  }

  @Test func urlSessionOnApplePlatformsTrustsCustomRootsAndChecksPins() async throws {
    let authority = try TestAuthority()
    let issued = try authority.issue()
    let leafPin = Data(SHA256.hash(data: issued.key.publicKey.derRepresentation)).base64EncodedString()
    let rootPin = Data(SHA256.hash(data: authority.key.publicKey.derRepresentation)).base64EncodedString()
    try await Self.withServer(issued) { server in
      let trusted = try ServerTrustPolicy.roots(pem: authority.pem)
      #expect(try await Self.getOverURLSession(server.url, trusting: trusted) == "ok")
      let both = try ServerTrustPolicy.roots(pem: authority.pem, includingSystemRoots: true)
      #expect(try await Self.getOverURLSession(server.url, trusting: both) == "ok")
      for pin in [leafPin, rootPin] {
        let pinned = trusted.pinning("127.0.0.1", spkiSHA256: [pin])
        #expect(try await Self.getOverURLSession(server.url, trusting: pinned) == "ok")
      }
      let wrongPin = trusted.pinning("127.0.0.1", spkiSHA256: [Data(repeating: 7, count: 32).base64EncodedString()])
      let pinError = await #expect(throws: CourierError.self) {
        try await Self.getOverURLSession(server.url, trusting: wrongPin)
      }
      #expect(pinError?.kind == .tls)
      #expect(pinError?.detail.contains("127.0.0.1") == true, "\(String(describing: pinError?.detail))")
      #expect(pinError?.detail.contains("pin") == true, "\(String(describing: pinError?.detail))")
      let other = try ServerTrustPolicy.roots(pem: TestAuthority(name: "Someone Else's CA").pem)
      let rootError = await #expect(throws: CourierError.self) {
        try await Self.getOverURLSession(server.url, trusting: other)
      }
      #expect(rootError?.kind == .tls)
      #expect(rootError?.detail.contains("trust evaluation") == true, "\(String(describing: rootError?.detail))")
    }
  }
  #endif

  @Test func rootsMustBeCertificates() throws {
    #expect(throws: CourierError.self) { _ = try ServerTrustPolicy.roots(pem: "no certificate here") }
    let garbage = ServerTrustPolicy(certificates: [Data("not DER".utf8)], trustsSystemRoots: false)
    var configuration = AsyncHTTPClientTransport.Configuration()
    let error = #expect(throws: CourierError.self) { try configuration.trust(garbage) }
    #expect(error?.kind == .tls)
    #expect(error?.detail.contains("Root certificate 1") == true)
    let two = try TestAuthority().pem + "\n" + TestAuthority().pem
    let both = try ServerTrustPolicy.roots(pem: two)
    #expect(both.certificates.count == 2 && !both.trustsSystemRoots && !both.isSystemDefault)
    #expect(try ServerTrustPolicy.roots(pem: two, includingSystemRoots: true).trustsSystemRoots)
  }
}
