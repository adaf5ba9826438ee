import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Tests that run real servers on 127.0.0.1 and talk to them over sockets.
@Suite(.timeLimit(.minutes(10))) struct LiveServerTests {
  /// Sends one request with a fresh URLSession and returns status and body.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func fetch(
    _ url: URL,
    method: String = "GET",
    body: Data? = nil
  ) async throws -> (status: Int, body: Data, response: HTTPURLResponse) {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    request.timeoutInterval = 30
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    return (http.statusCode, data, http)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func startServeAndStop() async throws {
    let server = try await TestSupport.server().start()
    #expect(server.host == "127.0.0.1")
    #expect(server.port > 0)
    #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")

    let (status, body, response) = try await Self.fetch(server.baseURL.appendingPathComponent("products/1"))
    #expect(status == 200)
    #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
    let product = try TestSupport.decoder().decode(Product.self, from: body)
    #expect(product.id == 1)

    await server.stop()
    await server.stop()  // idempotent
    await #expect(throws: (any Error).self) {
      _ = try await Self.fetch(server.baseURL.appendingPathComponent("products/1"))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func startAndStopRepeatedly() async throws {
    var ports: [Int] = []
    for _ in 0..<3 {
      let server = try await TestSupport.server().start()
      ports.append(server.port)
      let (status, _, _) = try await Self.fetch(server.baseURL.appendingPathComponent("empty"))
      #expect(status == 204)
      await server.stop()
    }
    #expect(ports.allSatisfy { $0 > 0 })
    // A port is free again once its server stopped: binding it explicitly works.
    let again = try await TestSupport.server().start(port: ports[0])
    #expect(again.port == ports[0])
    await again.stop()
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func busyPortThrows() async throws {
    let first = try await TestSupport.server().start()
    await #expect(throws: (any Error).self) {
      let second = try await TestSupport.server().start(port: first.port)
      await second.stop()
    }
    await first.stop()
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func echoOverTheWireKeepsTheRawTarget() async throws {
    let server = try await TestSupport.server().start()
    let url = try #require(URL(string: "\(server.baseURL.absoluteString)/echo/a%20b?\(EchoTests.trickyQuery)"))
    let (status, body, _) = try await Self.fetch(url, method: "PATCH", body: Data([0xFF, 0x10]))
    await server.stop()
    #expect(status == 200)
    let echo = try JSONDecoder().decode(EchoReply.self, from: body)
    #expect(echo.method == "PATCH")
    #expect(echo.path == "/echo/a%20b")
    #expect(echo.rawQuery == EchoTests.trickyQuery)
    #expect(echo.query == [["a&b", "c=d"], ["e", "👍"], ["plus", "a+b"]])
    #expect(echo.body == nil)
    #expect(echo.bodyBase64 == "/xA=")
    #expect(echo.headers.first == ["Host", "127.0.0.1:\(server.port)"])
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func stopEndsSlowRequestsPromptly() async throws {
    let server = try await TestSupport.server().start()
    let url = server.baseURL.appendingPathComponent("slow")
    let slowURL = try #require(URL(string: url.absoluteString + "?ms=30000"))
    let request = Task { try await Self.fetch(slowURL) }
    try await Task.sleep(for: .milliseconds(300))
    await server.stop()
    // A stop that waited for the slow request would have let it end after 30 s with 200.
    let outcome = await request.result
    if case .success(let response) = outcome {
      #expect(response.status != 200)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func runEndsWhenCancelled() async throws {
    let task = Task { try await TestSupport.server().run(port: 0) }
    try await Task.sleep(for: .milliseconds(200))
    task.cancel()
    // Cancelled while still starting (a loaded machine), `run` throws CancellationError; once running, it ends cleanly.
    // A `run` that ignored the cancellation would never end: the suite's time limit fails it.
    if case .failure(let error) = await task.result {
      #expect(error is CancellationError)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func startInCancelledTaskThrows() async throws {
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      let server = try await TestSupport.server().start()
      await server.stop()
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func hummingbirdLiveClient() async throws {
    let app = TestSupport.server().makeApplication()
    try await app.test(.live) { client in
      let login = try await client.sendJSON(
        "/auth/login",
        #"{"email":"demo@courier.dev","password":"secret123"}"#
      )
      #expect(login.status == .ok)
      let pair = try login.decode(TokenPair.self)
      let me = try await client.send("/users/me", headers: TestSupport.bearer(pair.accessToken))
      #expect(try me.decode(User.self).email == "demo@courier.dev")
      let echo = try await client.send("/echo/x?\(EchoTests.trickyQuery)").decode(EchoReply.self)
      #expect(echo.rawQuery == EchoTests.trickyQuery)
      let missing = try await client.send("/nope")
      #expect(missing.status == .notFound)
      #expect(try missing.errorBody().code == "not_found")
    }
  }
}
