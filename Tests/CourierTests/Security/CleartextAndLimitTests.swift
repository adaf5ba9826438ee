import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// Plain http only where allowed, response bodies within their limit, and error bodies kept short.
@Suite(.hangGuard) struct CleartextAndLimitTests {
  func stubbed(
    _ base: String, _ configure: (inout APIClient.Configuration) -> Void = { _ in }
  ) -> (
    APIClient, StubTransport
  ) {
    let transport = StubTransport(.get("/x").reply(.body("ok")))
    let client = APIClient.testing(baseURL: URL(string: base)!, transport: transport, configure)
    return (client, transport)
  }

  @Test func plainHTTPToAnotherHostIsRefusedSayingHowToAllowIt() async throws {
    let (client, transport) = stubbed("http://api.example.com")
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Data>.get("/x")) }
    #expect(error?.kind == .invalidRequest)
    #expect(error?.description.contains(#"cleartextHosts = ["api.example.com"]"#) == true)
    #expect(transport.requests.isEmpty, "nothing was sent")
  }

  @Test(arguments: ["https://api.example.com", "http://127.0.0.1:8080", "http://localhost", "http://[::1]:9000"])
  func httpsAndLoopbackNeedNoPermission(base: String) async throws {
    let (client, _) = stubbed(base)
    #expect(try await client.send(Endpoint<Data>.get("/x")).status == .ok)
  }

  @Test(arguments: [["*"], ["API.example.com"], ["*.example.com"]] as [Set<String>])
  func aClientMayAllowPlainHTTP(hosts: Set<String>) async throws {
    let (client, _) = stubbed("http://api.example.com") { $0.cleartextHosts = hosts }
    #expect(try await client.send(Endpoint<Data>.get("/x")).status == .ok)
  }

  @Test func anAllowedListDoesNotAllowOtherHosts() async throws {
    let (client, _) = stubbed("http://api.example.org") {
      $0.cleartextHosts = ["*.example.com", "example.org.evil"]
    }
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Data>.get("/x")) }
    #expect(error?.kind == .invalidRequest)
  }

  @Test func aRedirectToPlainHTTPElsewhereIsRefusedToo() async throws {
    let transport = StubTransport(
      .get("/start").reply(.status(.found, headerFields: [.location: "http://tracker.example.com/x"])))
    let client = APIClient.testing(baseURL: URL(string: "http://127.0.0.1:8080")!, transport: transport)
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Data>.get("/start")) }
    #expect(error?.kind == .invalidRequest)
    #expect(transport.requests.map(\.path) == ["/start"])
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aBodyOverTheLimitEndsTheCallAtOnceWhenItsLengthIsKnown(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      // A 1 GiB body served at 100 KB/s: a call that read up to its 10 MiB limit before failing would take 100 s and
      // meet the suite's time limit; one that fails on the head's Content-Length ends at once.
      let error = await #expect(throws: CourierError.self) {
        try await client.send(
          Endpoint<Data>.get("/download/1073741824").query("rate", 100_000).maxResponseBytes(10 << 20).timeout(600))
      }
      #expect(error?.kind == .responseTooLarge)
      #expect(error?.status == .ok, "the head is kept")
    }
  }

  @Test(arguments: TransportKind.allCases)
  func aBodyWithoutALengthStopsAtTheLimit(_ kind: TransportKind) async throws {
    let server = try await ScriptedServer.start { connection in
      guard try await connection.readRequest() != nil else { return }
      try await connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
      let chunk = Array("4000\r\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 0x4000) + Array("\r\n".utf8)
      for _ in 0..<1024 {  // 16 MiB if read whole
        try await connection.write(chunk)
      }
      try await connection.write("0\r\n\r\n")
    }
    defer { Task { await server.stop() } }
    try await withTransport(kind) { transport in
      var configuration = APIClient.Configuration(baseURL: server.baseURL, transport: transport)
      configuration.maxResponseBytes = 1 << 20
      let client = APIClient(configuration: configuration)
      let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Data>.get("/")) }
      #expect(error?.kind == .responseTooLarge)
    }
  }

  @Test func anErrorKeepsTheFirst64KiBOfTheBodyAndItsLength() async throws {
    let body = String(repeating: "e", count: 100_000)
    let client = APIClient.testing(stubs: [.get("/big").reply(.body(body, status: .internalServerError))])
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Data>.get("/big")) }
    #expect(error?.body?.count == 64 << 10)
    #expect(error?.bodyLength == 100_000)
  }
}
