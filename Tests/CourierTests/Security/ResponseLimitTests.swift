import CourierTestSupport
import CourierTesting
import Foundation
import Testing

@testable import Courier

/// A response body over the call's limit ends the call while the body arrives, on every path a transport takes, and
/// which path URLSessionTransport takes.
@Suite(.hangGuard) struct ResponseLimitTests {
  static let limit = 256 << 10

  /// How the server frames a body that passes the limit and then stalls.
  enum Framing: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Chunked, without a length: URLSessionTransport hands the chunks on as they arrive.
    case chunked
    /// No length and no chunks: the body would end when the connection closes.
    case untilClose
    /// gzip with a `Content-Length` within the limit, whose bytes inflate past it: URLSessionTransport collects the
    /// body whole, counting the inflated bytes.
    case gzipWithinItsLength

    var testDescription: String { rawValue }
  }

  /// Every transport and framing; gzip within its declared length is a body AsyncHTTPClientTransport would read
  /// whole by its `Content-Length` if it did not stream compressed bodies.
  static let cases = TransportKind.allCases.flatMap { kind in Framing.allCases.map { (kind, $0) } }

  @Test(arguments: cases)
  func aBodyPassingTheLimitFailsBeforeItsEndArrives(_ kind: TransportKind, framing: Framing) async throws {
    // The body's end never comes: a call that waited for it would end with the timeout instead.
    let (error, _) = try await limitedCall(kind, framing: framing, timeout: 600)
    #expect(error?.kind == .responseTooLarge, "\(String(describing: error))")
  }

  /// A call limited to ``limit`` bytes, over a transport of `kind`, to a server that sends a head and more than
  /// ``limit`` bytes of body framed by `framing`, then stalls: the error and the seconds the call took.
  func limitedCall(
    _ kind: TransportKind, framing: Framing, timeout: TimeInterval
  ) async throws -> (CourierError?, TimeInterval) {
    let more = Self.limit + (64 << 10)
    let gzip = Self.gzipPrefix(inflatingTo: more)
    #expect(gzip.count < Self.limit / 8, "the declared length is well within the limit")
    let server = try await ScriptedServer.start { connection in
      guard try await connection.readRequest() != nil else { return }
      switch framing {
      case .chunked:
        try await connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        try await connection.write(Array(String(more, radix: 16).utf8) + Array("\r\n".utf8))
        try await connection.write([UInt8](repeating: UInt8(ascii: "x"), count: more))
      case .untilClose:
        try await connection.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
        try await connection.write([UInt8](repeating: UInt8(ascii: "x"), count: more))
      case .gzipWithinItsLength:
        try await connection.write(
          "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(gzip.count + 1000)\r\n\r\n")
        try await connection.write(gzip)
      }
      await connection.hang()  // the rest never comes
    }
    defer { Task { await server.stop() } }
    return try await withTransport(kind) { transport in
      var configuration = APIClient.Configuration(baseURL: server.baseURL, transport: transport)
      configuration.maxResponseBytes = Self.limit
      let client = APIClient(configuration: configuration)
      let stopwatch = Stopwatch()
      let error = await #expect(throws: CourierError.self) {
        try await client.send(Endpoint<Data>.get("/").timeout(timeout))
      }
      return (error, stopwatch.elapsed)
    }
  }

  /// The start of a gzip stream (header and deflate data, no trailer) that inflates to at least `count` bytes, about
  /// 20 times as many as it has: fixed-Huffman blocks of 12 literal `x` and one 258-byte copy of the byte before.
  static func gzipPrefix(inflatingTo count: Int) -> [UInt8] {
    var bytes: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF]
    var accumulator: UInt32 = 0
    var filled = 0
    /// Appends the `length` low bits of `value`, least significant first.
    func bits(_ value: UInt32, _ length: Int) {
      accumulator |= value << filled
      filled += length
      while filled >= 8 {
        bytes.append(UInt8(accumulator & 0xFF))
        accumulator >>= 8
        filled -= 8
      }
    }
    /// Appends a Huffman code, most significant bit first.
    func code(_ value: UInt32, _ length: Int) {
      var reversed: UInt32 = 0
      for bit in 0..<length where value & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
      bits(reversed, length)
    }
    bits(0, 1)  // not the final block
    bits(1, 2)  // fixed Huffman codes
    var inflated = 0
    while inflated < count {
      for _ in 0..<12 { code(0x30 + UInt32(UInt8(ascii: "x")), 8) }  // literal `x`
      code(0xC5, 8)  // length 258 (code 285)
      code(0, 5)  // distance 1
      inflated += 12 + 258
    }
    if filled > 0 { bits(0, 8 - filled) }
    return bytes
  }

  @Test func aLimitedCallTakesTheDelegateOnEveryPlatform() {
    func path(
      delegate: Bool = true, challenges: Bool = false, incremental: Bool = false, buffered: Bool = true,
      limit: Int? = nil
    ) -> URLSessionTransport.ExchangePath {
      URLSessionTransport.exchangePath(
        hasDelegate: delegate, challengesNeedDelegate: challenges, deliversBodyIncrementally: incremental,
        hasBufferedBody: buffered, responseLimit: limit)
    }
    #expect(path(limit: 50 << 20) == .delegate, "a limit is enforced as the body arrives")
    #expect(path(limit: 0) == .delegate)
    #expect(path(incremental: true) == .delegate)
    #expect(path(buffered: false) == .delegate)
    #expect(path(challenges: true) == .delegate, "Linux")
    #expect(path() == .completionHandler, "only an unlimited, buffered call on an ordinary session")
    #expect(path(delegate: false, limit: 1 << 20) == .completionHandler, "a session passed in has no delegate")
    #expect(URLSessionTransport.answersChallengesOnlyWithDelegates == (path(challenges: true) == .delegate))
  }
}
