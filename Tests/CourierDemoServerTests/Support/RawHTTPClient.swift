import Foundation

@testable import CourierDemoServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 client on a blocking socket, run on a thread of its own (never on the concurrency pool).
///
/// It sends request bodies of any size with exactly the framing asked for (`Content-Length` or chunked), generating
/// them on the fly, and reads response bodies without keeping them: large transfers run in constant memory.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RawHTTPClient: Sendable {
  /// How a request body is framed.
  enum Framing: Sendable {
    case contentLength
    case chunked
  }

  /// A request body: `prefix`, then the first `patternLength` bytes of ``DownloadPattern``, then `suffix`.
  struct Body: Sendable {
    var prefix: [UInt8] = []
    var patternLength: Int64 = 0
    var suffix: [UInt8] = []

    /// Bytes in the whole body.
    var length: Int64 { Int64(prefix.count) + patternLength + Int64(suffix.count) }
  }

  /// A response; the body is kept up to a limit and otherwise only counted (and compared with the pattern).
  struct Response: Sendable {
    var status: Int
    var headers: [[String]]
    /// The first bytes of the body (all of it when small).
    var body: [UInt8]
    /// Bytes in the whole body.
    var bodyLength: Int64
    /// Whether every body byte equals ``DownloadPattern`` at `patternOffset` onwards (when one was given).
    var matchesPattern: Bool

    /// The first value of header `name` (case-insensitive).
    func header(_ name: String) -> String? {
      headers.first { $0[0].lowercased() == name.lowercased() }?[1]
    }
  }

  /// A socket error, with `errno`.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The server's port on 127.0.0.1.
  let port: Int

  /// 64 KiB + 256 bytes of the pattern: any pattern chunk is a slice of it.
  private static let table: [UInt8] = (0..<(DownloadPattern.chunkSize + 256)).map {
    DownloadPattern.byte(at: Int64($0))
  }

  /// Sends one request on a fresh connection and reads the response.
  func send(
    _ method: String,
    _ path: String,
    headers: [String: String] = [:],
    body: Body? = nil,
    framing: Framing = .contentLength,
    keepBody: Int = 1 << 20,
    patternOffset: Int64? = nil
  ) async throws -> Response {
    let port = port
    return try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        do {
          let connection = try Connection(port: port)
          defer { connection.close() }
          var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
          for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            head += "\(name): \(value)\r\n"
          }
          if let body {
            head += framing == .chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: \(body.length)\r\n"
          }
          try connection.write(Array((head + "\r\n").utf8))
          if let body {
            try Self.writeBody(body, framing: framing, to: connection)
          }
          let response = try Self.readResponse(
            from: connection,
            isHead: method == "HEAD",
            keepBody: keepBody,
            patternOffset: patternOffset
          )
          continuation.resume(returning: response)
        } catch {
          continuation.resume(throwing: error)
        }
      }
      thread.start()
    }
  }

  private static func writeBody(_ body: Body, framing: Framing, to connection: Connection) throws {
    func emit(_ bytes: UnsafeRawBufferPointer) throws {
      guard bytes.count > 0 else { return }
      if framing == .chunked {
        try connection.write(Array("\(String(bytes.count, radix: 16))\r\n".utf8))
        try connection.write(bytes)
        try connection.write(Array("\r\n".utf8))
      } else {
        try connection.write(bytes)
      }
    }
    try body.prefix.withUnsafeBytes { try emit($0) }
    var offset: Int64 = 0
    try table.withUnsafeBytes { table in
      while offset < body.patternLength {
        let count = Int(min(Int64(DownloadPattern.chunkSize), body.patternLength - offset))
        let start = Int(offset & 0xFF)
        try emit(UnsafeRawBufferPointer(rebasing: table[start..<start + count]))
        offset += Int64(count)
      }
    }
    try body.suffix.withUnsafeBytes { try emit($0) }
    if framing == .chunked {
      try connection.write(Array("0\r\n\r\n".utf8))
    }
  }

  private static func readResponse(
    from connection: Connection,
    isHead: Bool,
    keepBody: Int,
    patternOffset: Int64?
  ) throws -> Response {
    var reader = Reader(connection: connection)
    let statusLine = try reader.line()
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line") }
    var headers: [[String]] = []
    while case let line = try reader.line(), !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header \(line)") }
      headers.append([String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingWhitespace()])
    }
    var response = Response(status: status, headers: headers, body: [], bodyLength: 0, matchesPattern: true)
    let noBody = isHead || status == 204 || status == 304 || (100..<200).contains(status)
    let consume: (UnsafeRawBufferPointer) -> Void = { bytes in
      if response.body.count < keepBody {
        response.body.append(contentsOf: bytes.prefix(keepBody - response.body.count))
      }
      if let patternOffset, response.matchesPattern {
        response.matchesPattern = Self.matchesPattern(bytes, at: patternOffset + response.bodyLength)
      }
      response.bodyLength += Int64(bytes.count)
    }
    if noBody {
      return response
    }
    if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
      while true {
        let size = try reader.line().split(separator: ";")[0]
        guard let count = Int(size, radix: 16) else { throw Failure(description: "bad chunk size") }
        if count == 0 { break }
        try reader.read(Int64(count), into: consume)
        _ = try reader.line()
      }
    } else if let length = response.header("Content-Length").flatMap({ Int64($0) }) {
      try reader.read(length, into: consume)
    } else {
      try reader.readToEnd(into: consume)
    }
    return response
  }

  /// Whether `bytes` equal the pattern from `offset` on.
  private static func matchesPattern(_ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
    table.withUnsafeBytes { table in
      var done = 0
      while done < bytes.count {
        let count = min(DownloadPattern.chunkSize, bytes.count - done)
        let start = Int((offset + Int64(done)) & 0xFF)
        if memcmp(bytes.baseAddress! + done, table.baseAddress! + start, count) != 0 {
          return false
        }
        done += count
      }
      return true
    }
  }

  /// A connected blocking TCP socket with send and receive timeouts.
  final class Connection {
    private let descriptor: Int32

    init(port: Int) throws {
      #if canImport(Glibc)
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      #else
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
      #endif
      guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
      var timeout = timeval(tv_sec: 60, tv_usec: 0)
      setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      #if canImport(Darwin)
      var one: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #endif
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard result == 0 else {
        let code = errno
        close()
        throw Failure(description: "connect: errno \(code)")
      }
    }

    func write(_ bytes: [UInt8]) throws {
      try bytes.withUnsafeBytes { try write($0) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
      var sent = 0
      while sent < bytes.count {
        #if canImport(Glibc)
        let result = Glibc.send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
        #else
        let result = Darwin.send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, 0)
        #endif
        guard result > 0 else { throw Failure(description: "send: errno \(errno)") }
        sent += result
      }
    }

    /// Reads up to `capacity` bytes; 0 at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      let result = recv(descriptor, buffer.baseAddress!, buffer.count, 0)
      guard result >= 0 else { throw Failure(description: "recv: errno \(errno)") }
      return result
    }

    func close() {
      #if canImport(Glibc)
      Glibc.close(descriptor)
      #else
      Darwin.close(descriptor)
      #endif
    }
  }

  /// Buffered reading of lines and counted bodies.
  private struct Reader {
    let connection: Connection
    var buffer: [UInt8] = []
    var start = 0

    init(connection: Connection) {
      self.connection = connection
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    mutating func fill() throws -> Bool {
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      var chunk = [UInt8](repeating: 0, count: 64 * 1024)
      let count = try chunk.withUnsafeMutableBytes { try connection.read(into: $0) }
      buffer.append(contentsOf: chunk[0..<count])
      return count > 0
    }

    /// The next line without its CRLF.
    mutating func line() throws -> String {
      while true {
        if let end = buffer[start...].firstIndex(of: 0x0A) {
          var lineEnd = end
          if lineEnd > start, buffer[lineEnd - 1] == 0x0D {
            lineEnd -= 1
          }
          let text = String(decoding: buffer[start..<lineEnd], as: UTF8.self)
          start = end + 1
          return text
        }
        guard try fill() else { throw Failure(description: "connection closed in the middle of a line") }
      }
    }

    /// Passes the next `count` bytes to `consume`, in pieces.
    mutating func read(_ count: Int64, into consume: (UnsafeRawBufferPointer) -> Void) throws {
      var remaining = count
      while remaining > 0 {
        if start == buffer.count {
          guard try fill() else { throw Failure(description: "connection closed with \(remaining) bytes left") }
        }
        let take = Int(min(Int64(buffer.count - start), remaining))
        buffer.withUnsafeBytes { consume(UnsafeRawBufferPointer(rebasing: $0[start..<start + take])) }
        start += take
        remaining -= Int64(take)
      }
    }

    /// Passes everything up to the end of the stream to `consume`.
    mutating func readToEnd(into consume: (UnsafeRawBufferPointer) -> Void) throws {
      repeat {
        buffer.withUnsafeBytes { consume(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        start = buffer.count
      } while try fill()
    }
  }
}
