@testable import Courier
import Foundation
import HTTPTypes

/// A transport that answers with a closure and records what it was sent, for logic tests without a network.
final class ClosureTransport: HTTPTransport {
  typealias Handler = @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)

  private let handler: Handler
  private let sent = Locked<[(HTTPRequest, Data?)]>([])

  init(_ handler: @escaping Handler) {
    self.handler = handler
  }

  /// Answers every request with `status`, `body` and `headers`.
  convenience init(status: HTTPResponse.Status = .ok, body: String = "", headers: HTTPFields = [:]) {
    self.init { _, _ in (HTTPResponse(status: status, headerFields: headers), Data(body.utf8)) }
  }

  var requests: [HTTPRequest] { sent.withLock { $0.map(\.0) } }
  var bodies: [Data?] { sent.withLock { $0.map(\.1) } }

  func send(_ request: HTTPRequest, body: HTTPBody?, options: TransportOptions) async throws -> (HTTPResponse, HTTPBody) {
    let data = try await body?.collect()
    sent.withLock { $0.append((request, data)) }
    let (response, responseData) = try await handler(request, data)
    return (response, HTTPBody(responseData))
  }
}

extension APIClient {
  /// A client over `transport` with base URL `https://api.example.com/v1`.
  static func stubbed(_ transport: ClosureTransport, _ configure: (inout Configuration) -> Void = { _ in })
    -> APIClient
  {
    var configuration = Configuration(baseURL: URL(string: "https://api.example.com/v1"), transport: transport)
    configure(&configuration)
    return APIClient(configuration: configuration)
  }
}
