import Courier
import CourierAsyncHTTPClient
import CourierDemoServer
import Foundation

/// The tour's TLS step: the demo API over https with a private CA made at start, trusted as a custom root, and a
/// pinned call where the transport can pin (or the transport's typed refusal where it cannot).
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runTLSSteps() async throws {
    step("TLS with a private CA made at start: custom roots, and public-key pins where the transport can check them")
    let authority = try TourCertificateAuthority()
    let issued = try authority.issueForLoopback()
    let server = try await DemoServer().start(
      host: "127.0.0.1", port: 0, tls: .init(certificateChainPEM: issued.chainPEM, privateKeyPEM: issued.keyPEM))
    do {
      try await callOverTLS(server.baseURL, authority: authority, pin: issued.spkiSHA256)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  private func callOverTLS(_ url: URL, authority: TourCertificateAuthority, pin: String) async throws {
    let privateCA = try ServerTrustPolicy.roots(pem: authority.pem)
    var configuration = AsyncHTTPClientTransport.Configuration()
    try configuration.trust(privateCA)
    let trusting = APIClient(baseURL: url) { $0.transport = AsyncHTTPClientTransport(configuration: configuration) }
    let page = try await trusting.value(Endpoint<ProductPage>.get("/products"))
    print("  AsyncHTTPClient trusting only the tour's CA: GET \(url.absoluteString)/products → \(page.total) products")

    let systemOnly = APIClient(baseURL: url) { $0.transport = AsyncHTTPClientTransport() }
    do {
      try await systemOnly.send(Endpoint<EmptyBody>.get("/products"))
    } catch let error as CourierError {
      print("  with the system's roots only → \(error.kind): \(error.detail.prefix { $0 != "(" })")
    }

    let pinned = privateCA.pinning("127.0.0.1", spkiSHA256: [pin])
    var pinning = AsyncHTTPClientTransport.Configuration()
    do {
      try pinning.trust(pinned)
    } catch let error as CourierError {
      print("  AsyncHTTPClient asked to pin \(pin.prefix(12))… → refused at creation, \(error.kind)")
    }
    do {
      let transport = try URLSessionTransport(serverTrust: pinned)
      let pinnedClient = APIClient(baseURL: url) { $0.transport = transport }
      let pinnedPage = try await pinnedClient.value(Endpoint<ProductPage>.get("/products"))
      print("  URLSession pinned to the server's key: \(pinnedPage.total) products")
      let wrongPin = privateCA.pinning("127.0.0.1", spkiSHA256: [Data(count: 32).base64EncodedString()])
      let mispinnedTransport = try URLSessionTransport(serverTrust: wrongPin)
      let mispinned = APIClient(baseURL: url) { $0.transport = mispinnedTransport }
      do {
        try await mispinned.send(Endpoint<EmptyBody>.get("/products"))
      } catch let error as CourierError {
        print("  URLSession pinned to another key → \(error.kind): \(error.detail)")
      }
    } catch let error as CourierError where error.kind == .tls {
      print(
        "  URLSession asked to pin → refused at creation, \(error.kind) (no trust hook in libcurl on this platform)")
    }
  }
}
