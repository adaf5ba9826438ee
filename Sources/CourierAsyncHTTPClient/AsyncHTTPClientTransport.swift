import AsyncHTTPClient
import Courier
import HTTPTypes
import NIOCore

/// A transport over AsyncHTTPClient: the fast path on Linux and on servers.
///
/// Choose it over `URLSessionTransport` when you run on Linux or inside a server, where URLSession
/// (FoundationNetworking over libcurl) spends far more CPU per request. Request bodies stream to the server chunk by
/// chunk and response bodies arrive as a stream of chunks, so a large upload or download never sits in memory.
///
/// By default the transport makes its own `HTTPClient` from its ``Configuration`` and shuts it down when the last copy
/// of the transport is released. To share connections between transports, or to control the client's lifetime, pass
/// your own client built from a ``Configuration``, so that it never follows redirects (Courier does, by its
/// `RedirectPolicy`) and the transport knows what it does; shut it down when you are done with it:
///
/// ```swift
/// let configuration = AsyncHTTPClientTransport.Configuration()
/// let httpClient = HTTPClient(eventLoopGroupProvider: .singleton,
///                             configuration: configuration.httpClientConfiguration)
/// let api = APIClient(baseURL: url) {
///   $0.transport = AsyncHTTPClientTransport(client: httpClient, configuration: configuration)
/// }
/// // ... send requests ...
/// try await httpClient.shutdown()
/// ```
///
/// A response whose `Content-Length` is within ``Configuration/responseBufferingLimit`` (1 MiB by default) is read
/// whole before ``send(_:body:options:)`` returns, so interceptors see its bytes as they do with URLSession; a
/// larger one, or one of unknown length, streams.
///
/// The per-request `TransportOptions.timeout` is a deadline for sending the request (its whole body
/// included) and receiving the response head; give endpoints that upload large bodies a timeout long enough for
/// the upload. A streamed response body then arrives for as long as it keeps coming, bounded by the client's
/// ``Configuration/readTimeout`` (the longest wait between two reads). Cancelling the calling task cancels the
/// request, also while the response body is being read.
///
/// When the call asks to be told that its request went out (`TransportOptions.requestSent`, set for a start handler
/// or an event handler), the transport reports the moment the request head has been written to a connection: a
/// streamed body as the client first pulls it, any other request through AsyncHTTPClient's delegate API, whose
/// `didSendRequestHead` is that moment. A connection that is refused or never accepted is never reported.
public struct AsyncHTTPClientTransport: HTTPTransport, ServerTrustChecking {
  /// The client requests are sent with.
  public let client: HTTPClient
  /// What ``client`` does with compressed bodies and failed connections.
  public let configuration: Configuration

  /// The policy the transport checks servers against.
  package var serverTrustPolicy: ServerTrustPolicy { configuration.serverTrust }
  /// The client this transport made for itself, if it did; released with the last copy of the transport.
  private let owned: OwnedHTTPClient?

  /// Creates a transport with a client of its own, made from `configuration`: it never follows redirects,
  /// decompresses gzip and deflate, and fails a refused connection at once. The client is shut down when the last
  /// copy of the transport is released.
  ///
  /// ```swift
  /// let api = APIClient(baseURL: url) { $0.transport = AsyncHTTPClientTransport() }
  /// ```
  public init(configuration: Configuration = Configuration()) {
    let owned = OwnedHTTPClient(configuration: configuration.httpClientConfiguration)
    self.client = owned.client
    self.configuration = configuration
    self.owned = owned
  }

  /// Creates a transport over a client you own (and shut down).
  ///
  /// - Parameters:
  ///   - client: The client to send with.
  ///   - configuration: What the client was made with; make the client from
  ///     ``Configuration/httpClientConfiguration`` so the two agree. Courier advertises `Accept-Encoding` only when
  ///     the configuration says the client decompresses.
  public init(client: HTTPClient, configuration: Configuration = Configuration()) {
    self.client = client
    self.configuration = configuration
    owned = nil
  }

  /// The codings AsyncHTTPClient decodes by itself when decompression is enabled: gzip and deflate.
  public var supportedContentEncodings: [String] {
    configuration.decompresses ? ["gzip", "deflate"] : []
  }

  /// Sends the request, streaming its body, and returns as soon as the response head has arrived; the returned body
  /// streams the response from the connection.
  public func send(
    _ request: HTTPRequest,
    body: BodyStream?,
    options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    // A streamed body tells when the request went out by being pulled; a request without one, or with its bytes in
    // memory, goes through the delegate API, which reports the written head (only when someone listens for it).
    let signalsThroughDelegate = options.requestSent != nil && (body == nil || body?.bufferedData != nil)
    var clientRequest = try HTTPClientRequest(
      request, body: signalsThroughDelegate ? nil : body, requestSent: options.requestSent,
      writtenBy: client.eventLoopGroup)
    // Also on a client made elsewhere (`HTTPClient.shared`), the policy holds.
    if let tls = configuration.tlsConfiguration { clientRequest.tlsConfiguration = tls }
    let clientResponse: HTTPClientResponse
    do {
      try Task.checkCancellation()
      let deadline = NIODeadline.after(seconds: options.timeout)
      if signalsThroughDelegate, let requestSent = options.requestSent {
        clientResponse = try await client.execute(
          clientRequest, buffered: body?.bufferedData.map { ByteBuffer(bytes: $0) }, deadline: deadline,
          requestSent: requestSent)
      } else {
        clientResponse = try await client.execute(clientRequest, deadline: deadline)
      }
    } catch {
      throw CourierError(asyncHTTPClientFailure: error, request: request)
    }
    let response = HTTPResponse(clientResponse)
    let chunks = ResponseBodyChunks(clientResponse.body, request: request, response: response)
    // A compressed body's declared length says nothing of its inflated size: it streams, so that the call's
    // response limit counts the inflated bytes as they arrive.
    if !options.deliversBodyIncrementally, options.idleTimeout == nil,
      Self.readsWhole(response, method: request.method, limit: configuration.responseBufferingLimit),
      !(configuration.decompresses && response.headerFields[.contentEncoding] != nil)
    {
      return (response, BodyStream(try await chunks.collect()))
    }
    let length = Self.bodyLength(of: response, method: request.method, decompresses: configuration.decompresses)
    return (response, BodyStream(chunks, length: length))
  }

  /// Whether a response is small enough to read whole: a declared `Content-Length` within `limit`, or a response
  /// that has no body (`HEAD`, `204`, `304`).
  static func readsWhole(_ response: HTTPResponse, method: HTTPRequest.Method, limit: Int) -> Bool {
    if method == .head || response.status == .noContent || response.status == .notModified { return true }
    // One `Content-Length` field, read without joining values as the fields' subscript does (this runs per request).
    var length: String?
    for field in response.headerFields where field.name == .contentLength {
      guard length == nil else { return false }
      length = field.value
    }
    guard let length, let count = Int(length) else { return false }
    return count >= 0 && count <= limit
  }

  /// The body's length when the head tells it: `Content-Length`, unless the client inflates a coded body; zero for
  /// `HEAD`, `204` and `304`.
  static func bodyLength(of response: HTTPResponse, method: HTTPRequest.Method, decompresses: Bool) -> Int64? {
    if method == .head || response.status == .noContent || response.status == .notModified {
      return 0
    }
    if decompresses, let coding = response.headerFields[.contentEncoding], coding.lowercased() != "identity" {
      return nil
    }
    guard let text = response.headerFields[.contentLength], let count = Int64(text), count >= 0 else {
      return nil
    }
    return count
  }
}
