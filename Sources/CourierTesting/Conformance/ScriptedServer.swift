import Courier
import Foundation
import NIOCore
import NIOPosix

/// An HTTP server on 127.0.0.1 that answers every connection with a script you write byte by byte, to see how a
/// client copes with servers that misbehave: resets, truncated and trickled bodies, broken chunked encoding,
/// redirects to other origins, authentication challenges, responses that never end.
///
/// ```swift
/// let server = try await ScriptedServer.start { connection in
///   guard try await connection.readRequest() != nil else { return }
///   try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello")
///   try await connection.reset()
/// }
/// defer { Task { await server.stop() } }
/// ```
///
/// Each accepted connection runs the script in its own task; the script sees the connection's number, so the first
/// connection can behave differently from the next. The server records every request it reads
/// (``requests``) and counts connections (``connectionCount``). ``stop()`` closes the listener and cancels every
/// script still running.
public final class ScriptedServer: Sendable {
  /// What the server does with one connection.
  public typealias Script = @Sendable (ScriptedConnection) async throws -> Void

  /// The port the server listens on, on 127.0.0.1.
  public let port: Int
  private let listener: any Channel
  private let serving: Task<Void, Never>
  private let log: Locked<Log>
  private let unclaimed: Locked<Unclaimed>

  struct Log {
    var requests: [ScriptedRequest] = []
    var connections = 0
  }

  private init(
    port: Int, listener: any Channel, serving: Task<Void, Never>, log: Locked<Log>, unclaimed: Locked<Unclaimed>
  ) {
    self.port = port
    self.listener = listener
    self.serving = serving
    self.log = log
    self.unclaimed = unclaimed
  }

  /// `http://127.0.0.1:<port>`.
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// The URL of `path` (which starts with `/`) on this server.
  public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  /// Every request the scripts have read so far, in the order they were read.
  public var requests: [ScriptedRequest] { log.withLock { $0.requests } }

  /// How many connections the server has accepted so far.
  public var connectionCount: Int { log.withLock { $0.connections } }

  /// Starts a server on a free port of 127.0.0.1 that runs `script` for every connection it accepts.
  public static func start(_ script: @escaping Script) async throws -> ScriptedServer {
    let log = Locked(Log())
    // Every accepted connection is wrapped in an `NIOAsyncChannel` as it is accepted, and an `NIOAsyncChannel`
    // must be run (`executeThenClose`) before it is dropped. A connection accepted while the listener closes can be
    // wrapped but never reach the accept loop: it waits here until ``stop()`` runs it; once stopped, new
    // connections are refused before they are wrapped.
    let unclaimed = Locked(Unclaimed())
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      .bind(host: "127.0.0.1", port: 0) { channel in
        channel.eventLoop.makeCompletedFuture {
          try unclaimed.withLock { unclaimed in
            guard !unclaimed.stopped else { throw ScriptedServerError.stopped }
            let wrapped = try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            unclaimed.channels[ObjectIdentifier(channel)] = wrapped
            return wrapped
          }
        }
      }
    let listener = server.channel
    guard let port = listener.localAddress?.port else {
      try? await listener.close()
      throw ScriptedServerError.noPort
    }
    let serving = Task<Void, Never> {
      // A plain task group (a discarding one needs iOS 17 / macOS 14): a test server's few connections leave few
      // results to collect.
      await withTaskGroup(of: Void.self) { group in
        try? await server.executeThenClose { inbound in
          for try await connection in inbound {
            unclaimed.withLock { _ = $0.channels.removeValue(forKey: ObjectIdentifier(connection.channel)) }
            let index = log.withLock { log in
              log.connections += 1
              return log.connections - 1
            }
            group.addTask {
              try? await connection.executeThenClose { inbound, outbound in
                let scripted = ScriptedConnection(
                  index: index, inbound: inbound.makeAsyncIterator(), outbound: outbound, channel: connection.channel,
                  log: log)
                try await script(scripted)
              }
            }
          }
        }
        // The listener closed (``stop()``): the scripts of the connections it handed over end now.
        group.cancelAll()
      }
    }
    return ScriptedServer(port: port, listener: listener, serving: serving, log: log, unclaimed: unclaimed)
  }

  /// Closes the listener and every open connection, and cancels the scripts still running.
  public func stop() async {
    // The accept loop is not cancelled but ends with the listener, so that a connection accepted as it closes still
    // reaches a script (which finishes it) rather than being dropped.
    try? await listener.close()
    await serving.value
    // Connections accepted as the listener closed that never reached the loop: closed without a script.
    let leftover = unclaimed.withLock { unclaimed in
      unclaimed.stopped = true
      defer { unclaimed.channels = [:] }
      return Array(unclaimed.channels.values)
    }
    for connection in leftover {
      try? await connection.executeThenClose { _, _ in }
    }
  }
}

/// Connections wrapped for the accept loop that it has not taken yet.
struct Unclaimed: Sendable {
  var channels: [ObjectIdentifier: NIOAsyncChannel<ByteBuffer, ByteBuffer>] = [:]
  /// Set by ``ScriptedServer/stop()``: later connections are refused.
  var stopped = false
}

/// Why a ``ScriptedServer`` could not start.
public enum ScriptedServerError: Error, Equatable {
  /// The listener was bound but has no port.
  case noPort
  /// A request head was longer than 64 KiB, or was not HTTP.
  case malformedRequest(String)
  /// A connection arrived after ``ScriptedServer/stop()``.
  case stopped
}

/// One request as a ``ScriptedServer`` read it.
public struct ScriptedRequest: Sendable, CustomStringConvertible {
  /// The method, as sent (`GET`, `POST`, …).
  public let method: String
  /// The request target, as sent (`/path?query`).
  public let target: String
  /// The header field lines, as sent, in order.
  public let headers: [(name: String, value: String)]
  /// The body (de-chunked when it came chunked).
  public let body: [UInt8]
  /// Which of the server's connections it came on (0 for the first).
  public let connection: Int

  /// The value of the first field named `name` (case-insensitive), or `nil`.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// The path of the target, without the query.
  public var path: String { String(target.prefix { $0 != "?" }) }

  /// `METHOD target`.
  public var description: String { "\(method) \(target)" }
}

/// One connection of a ``ScriptedServer``, for its script to read requests from and write bytes to.
public final class ScriptedConnection {
  /// Which of the server's connections this is (0 for the first).
  public let index: Int
  private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
  private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
  private let channel: any Channel
  private let log: Locked<ScriptedServer.Log>
  private var buffer: [UInt8] = []

  init(
    index: Int, inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
    outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, channel: any Channel,
    log: Locked<ScriptedServer.Log>
  ) {
    self.index = index
    self.inbound = inbound
    self.outbound = outbound
    self.channel = channel
    self.log = log
  }

  /// Reads the next request on this connection, with its whole body (by `Content-Length`, or de-chunked), and
  /// records it in the server's ``ScriptedServer/requests``. `nil` when the client closed the connection first.
  public func readRequest() async throws -> ScriptedRequest? {
    guard let headEnd = try await fill(until: { Self.find([13, 10, 13, 10], in: $0) }) else { return nil }
    let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
    buffer.removeFirst(headEnd + 4)
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/") else {
      throw ScriptedServerError.malformedRequest(head)
    }
    let headers = lines.compactMap { line -> (name: String, value: String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    func field(_ name: String) -> String? {
      headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
    var body: [UInt8] = []
    if field("Transfer-Encoding")?.lowercased().contains("chunked") == true {
      body = try await readChunkedBody()
    } else if let length = field("Content-Length").flatMap(Int.init), length > 0 {
      guard try await fill(until: { $0.count >= length ? length : nil }) != nil else {
        throw ScriptedServerError.malformedRequest("body cut short")
      }
      body = Array(buffer.prefix(length))
      buffer.removeFirst(length)
    }
    let request = ScriptedRequest(
      method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body,
      connection: index)
    log.withLock { $0.requests.append(request) }
    return request
  }

  private func readChunkedBody() async throws -> [UInt8] {
    var body: [UInt8] = []
    while true {
      guard let lineEnd = try await fill(until: { Self.find([13, 10], in: $0) }) else {
        throw ScriptedServerError.malformedRequest("chunked body cut short")
      }
      let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).prefix { $0 != ";" }
      guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
        throw ScriptedServerError.malformedRequest("chunk size \(sizeText)")
      }
      buffer.removeFirst(lineEnd + 2)
      if size == 0 {
        // Trailer fields end with an empty line.
        while let end = try await fill(until: { Self.find([13, 10], in: $0) }) {
          buffer.removeFirst(end + 2)
          if end == 0 { break }
        }
        return body
      }
      guard try await fill(until: { $0.count >= size + 2 ? size : nil }) != nil else {
        throw ScriptedServerError.malformedRequest("chunk cut short")
      }
      body += buffer.prefix(size)
      buffer.removeFirst(size + 2)
    }
  }

  /// Reads whatever bytes arrive next, raw (a TLS hello, a request cut short); `nil` when the client closed.
  public func read() async throws -> [UInt8]? {
    if !buffer.isEmpty {
      defer { buffer.removeAll() }
      return buffer
    }
    return try await inbound.next().map { Array($0.readableBytesView) }
  }

  /// Reads until `found` returns a position in the buffered bytes; `nil` when the client closed first.
  private func fill(until found: ([UInt8]) -> Int?) async throws -> Int? {
    while true {
      if let position = found(buffer) { return position }
      guard buffer.count < 1 << 20 else { throw ScriptedServerError.malformedRequest("request too long") }
      guard let chunk = try await inbound.next() else { return nil }
      buffer += chunk.readableBytesView
    }
  }

  private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
      return start
    }
    return nil
  }

  /// Writes `text` (UTF-8) as it is: write `\r\n` yourself.
  public func write(_ text: String) async throws {
    try await write(Array(text.utf8))
  }

  /// Writes `bytes` as they are.
  public func write(_ bytes: [UInt8]) async throws {
    try await outbound.write(ByteBuffer(bytes: bytes))
  }

  /// Writes a complete response with `status`, `headers` and `body` (with a `Content-Length` unless the headers
  /// carry one, or carry `Transfer-Encoding`).
  public func respond(
    _ status: Int, reason: String = "Status", headers: [(String, String)] = [], body: String = ""
  ) async throws {
    var head = "HTTP/1.1 \(status) \(reason)\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    let named = Set(headers.map { $0.0.lowercased() })
    if !named.contains("content-length"), !named.contains("transfer-encoding") {
      head += "Content-Length: \(body.utf8.count)\r\n"
    }
    try await write(head + "\r\n" + body)
  }

  /// Writes `bytes` one at a time, pausing `interval` after each.
  public func trickle(_ bytes: [UInt8], every interval: Duration) async throws {
    for byte in bytes {
      try await write([byte])
      try await Task.sleep(for: interval)
    }
  }

  /// Closes the connection in the ordinary way (a FIN after what was written).
  public func close() async {
    try? await channel.close()
  }

  /// Aborts the connection: the client gets a TCP reset (RST), not an orderly close.
  public func reset() async {
    if let options = channel as? any SocketOptionProvider {
      try? await options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
    }
    try? await channel.close()
  }

  /// Keeps the connection open and silent until the server stops.
  public func hang() async {
    while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
  }
}
