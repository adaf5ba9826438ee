import AsyncHTTPClient
import Courier
import HTTPTypes
import NIOCore

extension HTTPClientRequest {
  /// The AsyncHTTPClient request for a Courier request: URL, method, header fields in order, and the body.
  ///
  /// A buffered body is sent as bytes (so a redirect can send it again); a streamed body is sent chunk by chunk,
  /// with `Content-Length` when its length is known and chunked transfer encoding otherwise. `requestSent` runs when
  /// the client first asks a streamed body for bytes: the connection is up and the head is being written.
  init(_ request: HTTPRequest, body: HTTPBody?, requestSent: (@Sendable () -> Void)? = nil) throws {
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
      self.body = .courier(body, requestSent: requestSent)
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
  /// The body for an `HTTPBody`: its bytes when buffered; its segments when it is made of bytes and whole files
  /// (read into buffers without a copy); otherwise a stream of its chunks.
  static func courier(_ body: HTTPBody, requestSent: (@Sendable () -> Void)? = nil) -> HTTPClientRequest.Body {
    if let data = body.bufferedData {
      return .bytes(ByteBuffer(bytes: data))
    }
    if let segments = body.segments, let count = body.length {
      return .stream(
        SegmentByteBuffers(segments: segments, body: body, requestSent: requestSent), length: .known(count))
    }
    let length = body.length.map { HTTPClientRequest.Body.Length.known($0) } ?? .unknown
    return .stream(RequestBodyChunks(body, requestSent: requestSent), length: length)
  }
}

/// The chunks of an `HTTPBody` as the byte buffers AsyncHTTPClient writes to the connection.
struct RequestBodyChunks: AsyncSequence, Sendable {
  typealias Element = ByteBuffer

  let body: HTTPBody
  let requestSent: (@Sendable () -> Void)?

  init(_ body: HTTPBody, requestSent: (@Sendable () -> Void)? = nil) {
    self.body = body
    self.requestSent = requestSent
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    var chunks: HTTPBody.AsyncIterator
    var requestSent: (@Sendable () -> Void)?
    let allocator = ByteBufferAllocator()

    mutating func next() async throws -> ByteBuffer? {
      if let sent = requestSent {
        requestSent = nil
        sent()
      }
      guard let chunk = try await chunks.next() else { return nil }
      return allocator.buffer(bytes: chunk)
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(chunks: body.makeAsyncIterator(), requestSent: requestSent)
  }
}
