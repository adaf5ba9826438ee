import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which check of a TLS handshake failed, read from libcurl's and OpenSSL's messages, SwiftNIO SSL's errors and
/// `URLError` codes, and said in the same words by every transport.
@Suite(.hangGuard) struct TLSFailureTests {
  @Test(arguments: [
    ("SSL certificate problem: unable to get local issuer certificate", TLSFailure.unknownRoot),
    ("SSL certificate problem: unable to get issuer certificate", .unknownRoot),
    ("SSL certificate problem: self signed certificate in certificate chain", .unknownRoot),
    ("SSL certificate problem: self-signed certificate in certificate chain", .unknownRoot),
    ("SSL certificate problem: self signed certificate", .selfSigned),
    ("SSL certificate problem: self-signed certificate", .selfSigned),
    ("SSL certificate problem: certificate has expired", .expired),
    ("SSL certificate problem: certificate is not yet valid", .notYetValid),
    ("SSL certificate problem: certificate signature failure", .untrusted),
    ("SSL: no alternative certificate subject name matches target host name '127.0.0.1'", .wrongHost),
    ("SSL: certificate subject name 'api.example.com' does not match target host name '127.0.0.1'", .wrongHost),
    ("OpenSSL/3.0.13: error:0A00010B:SSL routines::wrong version number", .notTLS),
    ("error:0A00009C:SSL routines::http request", .notTLS),
    ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:443", .handshake),
    (
      "handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435581 error:1000007d:SSL routines:"
        + "OPENSSL_internal:CERTIFICATE_VERIFY_FAILED]))", .untrusted
    ),
    ("NIOSSLExtraError.failedToValidateHostname: Couldn't find 127.0.0.1 in certificate from peer", .wrongHost),
    (
      "handshakeFailed(NIOSSL.BoringSSLError.sslError([error:100000f7:SSL routines:OPENSSL_internal:"
        + "WRONG_VERSION_NUMBER]))", .notTLS
    ),
  ])
  func messagesNameTheCheck(_ message: String, _ failure: TLSFailure) {
    #expect(TLSFailure(message: message) == failure, "\(message)")
    #expect(TLSFailure(code: .unknown, message: message) == failure, "\(message)")
    #expect(TLSFailure(code: .secureConnectionFailed, message: message) == failure, "\(message)")
  }

  @Test func otherFailuresAreNotTLS() {
    for message in [
      "Couldn't connect to server", "transfer closed with 5 bytes remaining to read", "Could not resolve host: x",
      "Empty reply from server", "Connection reset by peer",
    ] {
      #expect(TLSFailure(message: message) == nil, "\(message)")
      #expect(TLSFailure(code: .unknown, message: message) == nil, "\(message)")
    }
    #expect(TLSFailure(code: .timedOut, message: "SSL certificate problem: certificate has expired") == nil)
  }

  @Test func urlErrorCodesNameTheCheck() {
    #expect(TLSFailure(code: .serverCertificateHasUnknownRoot, message: "") == .unknownRoot)
    #expect(TLSFailure(code: .serverCertificateHasBadDate, message: "") == .outsideValidity)
    #expect(TLSFailure(code: .serverCertificateNotYetValid, message: "") == .notYetValid)
    // Apple says -1202 also for another host's certificate and a self-signed one, in the user's language.
    #expect(TLSFailure(code: .serverCertificateUntrusted, message: "") == .rejected)
    #expect(
      TLSFailure(code: .serverCertificateUntrusted, message: "Le certificat de ce serveur n'est pas valide.")
        == .rejected)
    #expect(TLSFailure(code: .secureConnectionFailed, message: "An SSL error has occurred") == .handshake)
    #expect(TLSFailure(code: .clientCertificateRequired, message: "") == .clientCertificate)
    #expect(
      TLSFailure(code: .serverCertificateUntrusted, message: "SSL certificate problem: self signed certificate")
        == .selfSigned)
  }

  @Test func everyCheckSaysWhatFailedAndTheHost() {
    let untrusted = TLSFailure.allCases.filter { $0.words(host: "h").contains("was not trusted") }
    #expect(
      Set(untrusted) == [.unknownRoot, .selfSigned, .expired, .notYetValid, .outsideValidity, .untrusted, .rejected])
    #expect(TLSFailure.rejected.words(host: "h").hasSuffix("or is not valid for h"), "a refusal without a reason")
    let unknown = TLSFailure.untrusted.words(host: "h")
    for words in ["self-signed", "unknown root", "expired", "not yet valid"] {
      #expect(unknown.contains(words), "the unspecified failure lists \(words)")
    }
    #expect(TLSFailure.wrongHost.words(host: "127.0.0.1") == "its certificate is not valid for 127.0.0.1")
    #expect(
      TLSFailure.expired.detail(host: "127.0.0.1", reported: "engine text")
        == "The secure connection to 127.0.0.1 failed: its certificate was not trusted (expired) (engine text)")
  }

  @Test func theHostIsTheAuthorityWithoutItsPort() {
    func host(_ url: String) -> String { TLSFailure.host(of: HTTPRequest(url: URL(string: url)!)) }
    #expect(host("https://127.0.0.1:8443/a") == "127.0.0.1")
    #expect(host("https://api.example.com/a") == "api.example.com")
    #expect(host("https://[::1]:8443/a") == "[::1]")
    #expect(TLSFailure.host(of: nil) == "the server")
  }

  @Test func urlSessionReportsLibcurlCertificateFailuresAsTLS() {
    let request = HTTPRequest(url: URL(string: "https://127.0.0.1:8443/hello")!)
    let reported = URLError(
      .unknown,
      userInfo: [NSLocalizedDescriptionKey: "SSL certificate problem: unable to get local issuer certificate"])
    let error = CourierError(transportFailure: reported, request: request)
    #expect(error.kind == .tls)
    #expect(
      error.detail
        == "The secure connection to 127.0.0.1 failed: its certificate was not trusted (issued by an unknown root) "
        + "(URLSession failed: SSL certificate problem: unable to get local issuer certificate (code -1))")
    let name = URLError(
      .unknown,
      userInfo: [
        NSLocalizedDescriptionKey: "SSL: no alternative certificate subject name matches target host name '127.0.0.1'"
      ])
    let wrongHost = CourierError(transportFailure: name, request: request)
    #expect(wrongHost.kind == .tls)
    #expect(wrongHost.detail.contains("its certificate is not valid for 127.0.0.1"))
    let reset = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "Connection reset by peer"])
    #expect(CourierError(transportFailure: reset, request: request).kind == .connectionLost)
  }

  @Test(arguments: [
    (-67818, TLSFailure.outsideValidity), (-67819, .notYetValid), (-67602, .wrongHost), (-67843, .untrusted),
    (-1, .untrusted),
  ])
  func theTrustEvaluationsCodeNamesTheCheckOfA1202(_ securityCode: Int, _ failure: TLSFailure) {
    #expect(TLSFailure(securityCode: securityCode) == failure)
    #expect(TLSFailure(code: .serverCertificateUntrusted, message: "", trustErrorCode: securityCode) == failure)
    // The more precise codes keep their own meaning.
    #expect(
      TLSFailure(code: .serverCertificateHasUnknownRoot, message: "", trustErrorCode: securityCode) == .unknownRoot)
  }

  @Test func eachAppleCertificateCodeIsATLSErrorNamingTheHost() throws {
    let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com:8443", path: "/")
    let codes: [(Int, String)] = [
      (-1201, "expired or not yet valid"), (-1202, "or is not valid for api.example.com"),
      (-1203, "issued by an unknown root"), (-1204, "not yet valid"), (-1205, "client certificate"),
      (-1206, "client certificate"),
    ]
    for (code, words) in codes {
      let error = CourierError(
        transportFailure: URLError(try #require(URLError.Code(rawValue: code))), request: request)
      #expect(error.kind == .tls, "\(code)")
      #expect(error.detail.contains("The secure connection to api.example.com failed"), "\(code): \(error.detail)")
      #expect(error.detail.contains(words), "\(code): \(error.detail)")
    }
  }

  @Test func appTransportSecurityRefusingPlainHTTPIsAnInvalidRequestThatSaysWhatToChange() throws {
    let request = HTTPRequest(method: .get, scheme: "http", authority: "api.example.com", path: "/")
    let error = CourierError(transportFailure: URLError(try #require(URLError.Code(rawValue: -1022))), request: request)
    #expect(error.kind == .invalidRequest)
    #expect(error.detail.contains("App Transport Security refused plain http to api.example.com"))
    #expect(error.detail.contains("NSAppTransportSecurity"))
  }
}
