import AsyncHTTPClient
import Courier
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore

extension HTTPClientRequest {
  /// The AsyncHTTPClient request for a Courier request: URL, method, header fields in order, and the body.
  ///
  /// A buffered body is sent as bytes (so a redirect can send it again); a streamed body is sent chunk by chunk,
  /// with `Content-Length` when its length is known and chunked transfer encoding otherwise. `requestSent` runs when
  /// the client first asks a streamed body for bytes: the connection is up and the head is being written.
  /// `eventLoops` are those a streamed body is written on (see ``EventLoopQueues``).
  init(
    _ request: HTTPRequest, body: BodyStream?, requestSent: (@Sendable () -> Void)? = nil,
    writtenBy eventLoops: any EventLoopGroup
  ) throws {
    guard let scheme = request.scheme, let authority = request.authority, !authority.isEmpty else {
      throw CourierError(.invalidURL, "The request has no scheme or authority", request: request)
    }
    let path = request.path ?? "/"
    var url = scheme
    url.reserveCapacity(scheme.utf8.count + 3 + authority.utf8.count + path.utf8.count)
    url += "://"
    url += authority
    url += path
    self.init(url: url)
    setMethod(request.method)
    // Names are validated tokens (ASCII) already, so the fields go in at once rather than through `add`, which
    // checks each name again.
    var pairs: [(String, String)] = []
    pairs.reserveCapacity(request.headerFields.count)
    var cookie: String?
    for field in request.headerFields {
      // `HTTPFields` splits a `Cookie` value into crumbs (one field per cookie, as HTTP/2 allows); HTTP/1.1 wants
      // them in one line, joined with "; " (RFC 9113 §8.2.3).
      if field.name == .cookie {
        cookie = cookie.map { $0 + "; " + field.value } ?? field.value
      } else {
        pairs.append((field.name.rawName, field.value))
      }
    }
    if let cookie { pairs.append(("Cookie", cookie)) }
    headers = .init(pairs)
    if let body {
      self.body = .courier(body, requestSent: requestSent, writtenBy: eventLoops)
    }
  }
}

extension HTTPClientRequest {
  /// Sets NIO's method for a Courier method; the common ones without comparing strings.
  mutating func setMethod(_ method: HTTPRequest.Method) {
    switch method {
    case .get: self.method = .GET
    case .post: self.method = .POST
    case .put: self.method = .PUT
    case .patch: self.method = .PATCH
    case .delete: self.method = .DELETE
    case .head: self.method = .HEAD
    case .options: self.method = .OPTIONS
    default: self.method = .init(rawValue: method.rawValue)
    }
  }
}

extension HTTPClientRequest.Body {
  /// The body for a `BodyStream`: its bytes when buffered; its segments when it is made of bytes and whole files
  /// (read into buffers without a copy); otherwise a stream of its chunks.
  static func courier(
    _ body: BodyStream, requestSent: (@Sendable () -> Void)? = nil, writtenBy eventLoops: any EventLoopGroup
  ) -> HTTPClientRequest.Body {
    if let data = body.bufferedData {
      return .bytes(ByteBuffer(bytes: data))
    }
    let queues = EventLoopQueues(eventLoops)
    if let segments = body.segments, let count = body.length {
      return .stream(
        SegmentByteBuffers(segments: segments, body: body, requestSent: requestSent, queues: queues),
        length: .known(count))
    }
    let length = body.length.map { HTTPClientRequest.Body.Length.known($0) } ?? .unknown
    return .stream(RequestBodyChunks(body, requestSent: requestSent, queues: queues), length: length)
  }
}

/// The event loops a streamed request body is written on, waited on before the body hands over more bytes.
///
/// AsyncHTTPClient's async API takes a body's buffers as fast as the body yields them and queues each write on the
/// connection's event loop without waiting for it; it stops taking buffers only once that loop has found the
/// connection unwritable. A loop starved of CPU finds that late: with the client on one busy core, a 1 GiB file
/// upload queued up to 400 MiB of writes. Waiting, every MiB, until every loop has run what was queued on it
/// before (a loop runs its tasks in order) lets the connection's loop see each write, and pause the body, before
/// more is read out.
struct EventLoopQueues: Sendable {
  /// How many bytes a body hands over between two waits: one of a file body's buffers. A wait (each loop wakes up)
  /// is a small part of what a MiB of a file upload costs (Benchmarks/RESULTS.md, "Upload buffers").
  static let stride = 1 << 20

  private let loops: [any EventLoop]

  init(_ group: any EventLoopGroup) {
    loops = Array(group.makeIterator())
  }

  /// Counts the bytes a body hands over, and waits on the loops once a stride has passed since the last wait.
  struct Pace: Sendable {
    let queues: EventLoopQueues
    /// Bytes handed over since the loops were last waited on.
    private var unwaited = 0

    init(_ queues: EventLoopQueues) {
      self.queues = queues
    }

    /// Counts bytes handed over.
    mutating func handedOver(_ count: Int) {
      unwaited += count
    }

    /// Waits on the loops if a stride has been handed over since the last wait; call before handing over more.
    mutating func waitIfDue() async {
      guard unwaited >= EventLoopQueues.stride else { return }
      unwaited = 0
      await queues.drain()
    }
  }

  /// Returns once every loop has run the tasks queued on it before this call.
  func drain() async {
    guard !loops.isEmpty else { return }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let remaining = NIOLockedValueBox(loops.count)
      for loop in loops {
        loop.execute {
          let last = remaining.withLockedValue { count in
            count -= 1
            return count == 0
          }
          if last { done.resume() }
        }
      }
    }
  }
}

/// The chunks of a `BodyStream` as the byte buffers AsyncHTTPClient writes to the connection.
struct RequestBodyChunks: AsyncSequence, Sendable {
  typealias Element = ByteBuffer

  let body: BodyStream
  let requestSent: (@Sendable () -> Void)?
  let queues: EventLoopQueues

  init(_ body: BodyStream, requestSent: (@Sendable () -> Void)? = nil, queues: EventLoopQueues) {
    self.body = body
    self.requestSent = requestSent
    self.queues = queues
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    var chunks: BodyStream.AsyncIterator
    var requestSent: (@Sendable () -> Void)?
    var pace: EventLoopQueues.Pace
    let allocator = ByteBufferAllocator()

    mutating func next() async throws -> ByteBuffer? {
      if let sent = requestSent {
        requestSent = nil
        sent()
      }
      await pace.waitIfDue()
      guard let chunk = try await chunks.next() else { return nil }
      pace.handedOver(chunk.count)
      return allocator.buffer(bytes: chunk)
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(chunks: body.makeAsyncIterator(), requestSent: requestSent, pace: EventLoopQueues.Pace(queues))
  }
}
