import AsyncHTTPClient
import Courier
import Crypto
import Foundation
import NIOSSL
import Testing
import X509

@testable import CourierAsyncHTTPClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How the AsyncHTTPClient transport classifies Network.framework's failures (which it meets on Apple platforms),
/// over the codes an `NWError` carries, and what its configuration asks of Network.framework.
@Suite struct NetworkFrameworkFailureTests {
  func kind(_ domain: NetworkFrameworkFailure.Domain, _ code: Int32) -> CourierError.Kind {
    NetworkFrameworkFailure(domain, code: code).kind
  }

  @Test func posixFailuresToConnectAreNoConnectionOrTimeout() {
    for code in [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ENETDOWN, EHOSTDOWN] {
      #expect(kind(.posix, code) == .noConnection, "errno \(code)")
    }
    #expect(kind(.posix, ETIMEDOUT) == .timeout)
    #expect(kind(.posix, ECONNRESET) == .connectionLost)
    #expect(kind(.posix, EINVAL) == .transport)
  }

  @Test func dnsFailuresAreNoConnectionButATimeoutIsATimeout() {
    // kDNSServiceErr_NoSuchName, _NoSuchRecord, _Refused, _NoRouter, _PolicyDenied, _Unknown
    for code: Int32 in [-65538, -65554, -65553, -65566, -65570, -65537] {
      #expect(kind(.dns, code) == .noConnection, "DNS error \(code)")
    }
    #expect(kind(.dns, -65568) == .timeout)  // kDNSServiceErr_Timeout
    #expect(NetworkFrameworkFailure(.dns, code: -65554).failedCheck(host: "a") == nil)
  }

  @Test func tlsStatusesAreTLSErrorsNamingTheCheck() {
    let host = "api.example.com"
    func check(_ code: Int32) -> String? { NetworkFrameworkFailure(.tls, code: code).failedCheck(host: host) }
    // errSSLXCertChainInvalid, errSSLBadCert, errSSLUnknownRootCert, errSSLNoRootCert, errSecNotTrusted
    for code: Int32 in [-9807, -9808, -9812, -9813, -67843] {
      #expect(kind(.tls, code) == .tls)
      #expect(check(code)?.contains("not trusted") == true, "OSStatus \(code)")
    }
    // errSSLCertExpired, errSSLPeerCertExpired, errSecCertificateExpired
    for code: Int32 in [-9814, -9828, -67818] {
      #expect(kind(.tls, code) == .tls)
      #expect(check(code) == "its certificate was not trusted (expired)", "OSStatus \(code)")
    }
    // errSSLCertNotYetValid, errSecCertificateNotValidYet
    for code: Int32 in [-9815, -67819] {
      #expect(kind(.tls, code) == .tls)
      #expect(check(code) == "its certificate was not trusted (not yet valid)", "OSStatus \(code)")
    }
    #expect(check(-9812) == "its certificate was not trusted (issued by an unknown root)")  // errSSLUnknownRootCert
    // errSSLBadCert names no check: every one is named, the host too.
    #expect(check(-9808)?.hasSuffix("or is not valid for \(host)") == true)
    // errSSLHostNameMismatch, errSecHostNameMismatch
    for code: Int32 in [-9843, -67602] {
      #expect(check(code) == "its certificate is not valid for \(host)")
    }
    #expect(check(-9836)?.contains("TLS version") == true)  // errSSLPeerProtocolVersion
    #expect(check(-9842)?.contains("client certificate") == true)  // errSSLClientCertRequested
    #expect(check(-9858) == "the TLS handshake failed (OSStatus -9858)")  // errSSLHandshakeFail
    #expect(kind(.tls, -9853) == .timeout)  // errSSLNetworkTimeout
    for code: Int32 in [-9805, -9806, -9816, -9852] {  // closed gracefully, aborted, without notify; reset
      #expect(kind(.tls, code) == .connectionLost, "OSStatus \(code)")
      #expect(check(code) == nil)
    }
    #expect(kind(.tls, -50) == .transport)  // errSecParam: not a failure of the server
  }

  @Test func transportServicesOwnErrorsAreClassifiedByName() {
    #expect(
      CourierError.kind(networkFrameworkErrorNamed: "NIOTransportServices.NIOTSErrors.UnableToResolveEndpoint")
        == .noConnection)
    #expect(
      CourierError.kind(networkFrameworkErrorNamed: "NIOTransportServices.NIOTSErrors.InvalidHostname") == .invalidURL)
    #expect(
      CourierError.kind(networkFrameworkErrorNamed: "NIOTransportServices.NIOTSErrors.NoCurrentConnection")
        == .connectionLost)
    #expect(CourierError.kind(networkFrameworkErrorNamed: "NIOTransportServices.NIOTSErrors.BindTimeout") == nil)
  }

  @Test func onlyNetworkFrameworksErrorsAreReadAsSuch() {
    #expect(NetworkFrameworkFailure(CourierError(.tls, "x")) == nil)
    #expect(NetworkFrameworkFailure(URLError(.cancelled)) == nil)
  }

  @Test func aClientWaitsForConnectivityOnlyWhenAsked() {
    var configuration = AsyncHTTPClientTransport.Configuration()
    #expect(!configuration.waitsForConnectivity)
    #expect(!configuration.httpClientConfiguration.networkFrameworkWaitForConnectivity)
    configuration.waitsForConnectivity = true
    #expect(configuration.httpClientConfiguration.networkFrameworkWaitForConnectivity)
    #expect(
      AsyncHTTPClientTransport.Configuration.sharedClient.httpClientConfiguration
        .networkFrameworkWaitForConnectivity, "as HTTPClient.shared does")
  }

  @Test func customRootsAloneAreTheClientsTrustRoots() throws {
    let key = P256.Signing.PrivateKey()
    let name = try DistinguishedName { CommonName("Courier Roots Test CA") }
    let root = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
      notValidBefore: Date().addingTimeInterval(-600), notValidAfter: Date().addingTimeInterval(3600),
      issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil)) },
      issuerPrivateKey: Certificate.PrivateKey(key))
    let pem = try root.serializeAsPEM().pemString
    var configuration = AsyncHTTPClientTransport.Configuration()
    try configuration.trust(.roots(pem: pem))
    // Network.framework reads `trustRoots` (and not `additionalTrustRoots`), as SwiftNIO SSL does.
    let tls = try #require(configuration.httpClientConfiguration.tlsConfiguration)
    #expect(tls.trustRoots == .certificates([try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem)]))
    #expect(tls.additionalTrustRoots.isEmpty)
    var both = AsyncHTTPClientTransport.Configuration()
    if AsyncHTTPClientTransport.Configuration.addsRootsToSystemRoots {
      try both.trust(.roots(pem: pem, includingSystemRoots: true))
      let tls = try #require(both.httpClientConfiguration.tlsConfiguration)
      #expect(tls.trustRoots == nil || tls.trustRoots == .default)
      #expect(tls.additionalTrustRoots.count == 1)
    } else {
      let error = #expect(throws: CourierError.self) { try both.trust(.roots(pem: pem, includingSystemRoots: true)) }
      #expect(error?.kind == .tls)
      #expect(both.serverTrust == .system)
    }
  }
}
