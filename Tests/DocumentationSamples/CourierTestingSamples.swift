// The code samples of the articles, compiled. Each sample is copied here as it appears in its article (less its
// `import` lines, which are at the top of this file); `DocumentationSampleTests` fails when an article's sample is not
// found here. This target is built by `swift build` and never run.
import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// The transport of CheckingATransport.md's first sample.
struct MyTransport: HTTPTransport {
  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    throw CourierError(.transport, "not a real transport")
  }
}

@Suite(.serialized) struct MyTransportConformance {
  @Test(arguments: TransportConformance.cases)
  func conforms(_ conformanceCase: TransportConformanceCase) async throws {
    try await TransportConformance.check(conformanceCase, over: MyTransport())
  }
}

enum CheckingATransportSamples {
  /// A scripted server.
  static func scriptedServer() async throws {
    let server = try await ScriptedServer.start { connection in
      guard try await connection.readRequest() != nil else { return }
      try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
      try await connection.trickle(Array("partial".utf8), every: .milliseconds(50))
      await connection.reset()  // a TCP reset, not an orderly close
    }
    // … send to server.baseURL and check what came back …
    await server.stop()
  }
}

/// The view model of CourierTesting.md's sample.
final class ProfileModel: @unchecked Sendable {  // @unchecked: `loaded` is only used under `lock`.
  let client: APIClient
  private let lock = NSLock()
  private var loaded = ""
  init(client: APIClient) { self.client = client }
  var title: String { lock.withLock { loaded } }
  func load() async {
    let user = try? await client.value(Endpoint<User>.get("/users/me"))
    lock.withLock { loaded = user?.name ?? "" }
  }
}

@Test func showsTheSignedInUser() async throws {
  let client = APIClient.testing(stubs: [
    .get("/users/me").reply(.json(User(id: 1, name: "Ada")))
  ])
  let model = ProfileModel(client: client)
  await model.load()
  #expect(model.title == "Ada")
}
