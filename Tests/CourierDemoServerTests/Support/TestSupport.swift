import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import CourierDemoServer

/// Shared helpers for the demo-server tests.
@available(macOS 14, iOS 17, tvOS 17, *)
enum TestSupport {
  /// How long a call may take before it counts as hung, as in the package's other test targets
  /// (CourierTestSupport's `hangSeconds`): longer than a call waits for its turn in the whole suite pinned to one core
  /// beside a CPU hog. It asserts nothing about speed. 120 s, or the seconds in `COURIER_HANG_SECONDS`, as there.
  static let hangSeconds: Double = {
    guard let text = ProcessInfo.processInfo.environment["COURIER_HANG_SECONDS"], let seconds = Double(text),
      seconds > 0
    else { return 120 }
    return seconds
  }()

  /// A logger that only reports problems, to keep test output short.
  static var logger: Logger {
    var logger = Logger(label: "courier.demo-server.tests")
    logger.logLevel = .warning
    return logger
  }

  /// A server description with the quiet logger.
  static func server(options: DemoServer.Options = .init()) -> DemoServer {
    DemoServer(options: options, logger: logger)
  }

  /// Runs `test` against a freshly seeded server driven in memory.
  static func withRouter<Value: Sendable>(
    options: DemoServer.Options = .init(),
    _ test: @Sendable (any TestClientProtocol) async throws -> Value
  ) async throws -> Value {
    try await server(options: options).makeApplication().test(.router) { client in
      try await test(client)
    }
  }

  /// Runs `test` against a live server on 127.0.0.1 and stops the server afterwards, also when `test` throws.
  static func withLiveServer<Value: Sendable>(
    _ test: @Sendable (RunningDemoServer) async throws -> Value
  ) async throws -> Value {
    let server = try await server().start()
    do {
      let value = try await test(server)
      await server.stop()
      return value
    } catch {
      await server.stop()
      throw error
    }
  }

  /// The URL of `pathAndQuery` (e.g. `/flaky/k?failures=1`) on `server`.
  static func url(_ pathAndQuery: String, on server: RunningDemoServer) throws -> URL {
    try #require(URL(string: server.baseURL.absoluteString + pathAndQuery))
  }

  /// A decoder matching the server's encoder (ISO 8601 dates).
  static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  /// `Authorization: Bearer <token>`.
  static func bearer(_ token: String) -> HTTPFields {
    [.authorization: "Bearer \(token)"]
  }

  /// `Content-Type: application/json`.
  static let jsonHeaders: HTTPFields = [.contentType: "application/json"]
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension TestClientProtocol {
  /// Sends a request with an optional UTF-8 body.
  func send(
    _ uri: String,
    method: HTTPRequest.Method = .get,
    headers: HTTPFields = [:],
    body: String? = nil
  ) async throws -> TestResponse {
    try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
  }

  /// Sends a JSON body.
  func sendJSON(
    _ uri: String,
    method: HTTPRequest.Method = .post,
    headers: HTTPFields = [:],
    _ json: String
  ) async throws -> TestResponse {
    var headers = headers
    headers[.contentType] = "application/json"
    return try await send(uri, method: method, headers: headers, body: json)
  }

  /// Logs in as the demo user with a JSON body and returns the token pair.
  func loginDemoUser() async throws -> TokenPair {
    let response = try await sendJSON("/auth/login", #"{"email":"demo@courier.dev","password":"secret123"}"#)
    return try response.decode(TokenPair.self)
  }
}

/// A failure while decoding a test response.
@available(macOS 14, iOS 17, tvOS 17, *)
struct UnexpectedResponse: Error, CustomStringConvertible {
  /// What went wrong.
  var description: String
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension TestResponse {
  /// The body as UTF-8 text.
  var text: String {
    String(buffer: body)
  }

  /// The body decoded as `type`.
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    do {
      return try TestSupport.decoder().decode(type, from: Data(body.readableBytesView))
    } catch {
      throw UnexpectedResponse(description: "Could not decode \(T.self) from \(status.code) \(text): \(error)")
    }
  }

  /// The body decoded as an error body.
  func errorBody() throws -> ErrorBody {
    try decode(ErrorBody.self)
  }

  /// Whether the response declares a JSON body.
  var isJSON: Bool {
    headers[.contentType]?.hasPrefix("application/json") ?? false
  }
}
