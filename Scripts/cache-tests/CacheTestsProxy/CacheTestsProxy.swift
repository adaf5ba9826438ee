import Courier
import CourierAsyncHTTPClient
import CourierSQLiteCache
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix

/// A reverse proxy on 127.0.0.1 that answers every request through an `APIClient` with a `CacheInterceptor`, so that
/// http-tests/cache-tests can test Courier's cache as it tests a proxy cache. Requests reach the origin with their
/// method, target, header lines and body as the test client sent them; responses come back with the status, header
/// lines and body the cache handed on. When the call fails (the origin closed the connection and nothing stored may
/// be served), the proxy answers 502 without fields.
///
/// Usage: `CacheTestsProxy <port> <origin URL> memory|sqlite`
@main
struct CacheTestsProxy {
  static func main() async throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 4, let port = Int(arguments[1]), let origin = URL(string: arguments[2]),
      ["memory", "sqlite"].contains(arguments[3])
    else {
      FileHandle.standardError.write(Data("usage: CacheTestsProxy <port> <origin URL> memory|sqlite\n".utf8))
      exit(2)
    }
    let store: any CacheStore
    if arguments[3] == "sqlite" {
      let url = FileManager.default.temporaryDirectory.appendingPathComponent("cache-tests-\(UUID()).sqlite")
      store = try SQLiteCacheStore(url: url)
    } else {
      store = InMemoryCacheStore()
    }
    let client = APIClient(baseURL: origin) {
      $0.transport = AsyncHTTPClientTransport(configuration: .init(decompression: .disabled))
      $0.interceptors = [Forwarding(), CacheInterceptor(store: store)]
      $0.redirects = .none
      $0.cookies = nil
      $0.timeout = 10
      $0.cleartextHosts = [origin.host ?? "127.0.0.1"]
    }
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .bind(host: "127.0.0.1", port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
            wrappingChannelSynchronously: channel)
        }
      }
    print("CacheTestsProxy on 127.0.0.1:\(port) -> \(origin) with the \(arguments[3]) store")
    await withTaskGroup(of: Void.self) { group in
      try? await server.executeThenClose { connections in
        for try await connection in connections {
          group.addTask { await serve(connection, client: client) }
        }
      }
    }
  }

  /// Answers the requests of one connection, one after another.
  static func serve(
    _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
    client: APIClient
  ) async {
    try? await connection.executeThenClose { inbound, outbound in
      var head: HTTPRequestHead?
      var body = Data()
      for try await part in inbound {
        switch part {
        case .head(let received):
          head = received
          body = Data()
        case .body(let buffer):
          body.append(contentsOf: buffer.readableBytesView)
        case .end:
          guard let request = head else { continue }
          try await answer(request, body: body, client: client, outbound: outbound)
          head = nil
        }
      }
    }
  }

  static func answer(
    _ head: HTTPRequestHead,
    body: Data,
    client: APIClient,
    outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
  ) async throws {
    var fields = HTTPFields()
    for (name, value) in head.headers {
      guard let fieldName = HTTPField.Name(name), !Forwarding.connectionFields.contains(fieldName) else { continue }
      fields.append(HTTPField(name: fieldName, value: value))
    }
    // NIO names M-SEARCH `MSEARCH`.
    let method = HTTPRequest.Method(head.method == .MSEARCH ? "M-SEARCH" : head.method.rawValue) ?? .get
    var endpoint = Endpoint<Data>.get("/").method(method).expectAnyStatus()
      .attribute(Forwarding.Key.self, Forwarding.Original(path: head.uri, fields: fields))
    if !body.isEmpty { endpoint = endpoint.body(body) }
    var status = HTTPResponseStatus.badGateway
    var headers = HTTPHeaders()
    var data = Data()
    do {
      let response = try await client.send(endpoint)
      status = HTTPResponseStatus(statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase)
      for field in response.headerFields where !Forwarding.connectionFields.contains(field.name) {
        headers.add(name: field.name.rawName, value: field.value)
      }
      data = response.data
    } catch {
      let text = String(describing: error).filter { $0.isASCII && !$0.isNewline }
      headers.add(name: "Courier-Error", value: String(text.prefix(200)))
    }
    let bodiless = method == .head || status.code == 304 || status.code == 204 || (100..<200).contains(status.code)
    if !bodiless { headers.replaceOrAdd(name: "Content-Length", value: String(data.count)) }
    try await outbound.write(.head(HTTPResponseHead(version: head.version, status: status, headers: headers)))
    if !bodiless, !data.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: data)))) }
    try await outbound.write(.end(nil))
  }
}

/// The first interceptor: gives the request the target and header lines the test client sent, in place of what the
/// endpoint built.
struct Forwarding: Interceptor {
  struct Original: Sendable {
    var path: String
    var fields: HTTPFields
  }

  enum Key: AttributeKey {
    static let defaultValue: Original? = nil
  }

  static let connectionFields: Set<HTTPField.Name> = [
    .connection, .transferEncoding, .contentLength, HTTPField.Name("Keep-Alive")!, HTTPField.Name("Host")!,
  ]

  func intercept(
    _ request: HTTPRequest, body: BodyStream?, context: CallContext, next: Next
  ) async throws
    -> (HTTPResponse, BodyStream)
  {
    guard let original = context[Key.self] else { return try await next(request, body, context) }
    var request = request
    request.path = original.path
    var fields = original.fields
    if let length = request.headerFields[.contentLength] { fields[.contentLength] = length }
    // A new connection for every request: the origin closes idle connections after five seconds, and a request
    // sent on one as it closes would fail.
    fields[.connection] = "close"
    request.headerFields = fields
    return try await next(request, body, context)
  }
}
