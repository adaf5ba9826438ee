import Foundation
import HTTPTypes

/// The one thing a transport does: send an HTTP request and return the response head and body.
///
/// Courier ships ``URLSessionTransport`` (Apple platforms and Linux). Write your own to reach a network stack
/// Courier does not know, or use `StubTransport` from CourierTesting in tests.
///
/// A transport throws ``CourierError`` for failures it can classify (``CourierError/Kind-swift.struct/timeout``,
/// ``CourierError/Kind-swift.struct/noConnection``, ...); anything else it throws is wrapped as
/// ``CourierError/Kind-swift.struct/transport``. Cancelling the calling task must cancel the transfer.
///
/// ```swift
/// struct EchoTransport: HTTPTransport {
///   func send(_ request: HTTPRequest, body: BodyStream?, options: TransportOptions) async throws
///     -> (HTTPResponse, BodyStream)
///   {
///     (HTTPResponse(status: .ok), body ?? BodyStream())
///   }
/// }
/// ```
public protocol HTTPTransport: Sendable {
  /// Sends `request` with `body` and returns the response head and its body.
  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream)

  /// The content codings this transport decodes itself, most preferred first (e.g. `["gzip", "deflate"]`).
  /// Courier advertises them in `Accept-Encoding`; the default is none.
  var supportedContentEncodings: [String] { get }
}

extension HTTPTransport {
  /// No content codings by default, so servers answer with the identity coding.
  public var supportedContentEncodings: [String] { [] }
}
