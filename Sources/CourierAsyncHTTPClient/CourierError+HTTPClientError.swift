import AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension CourierError {
  /// Classifies a failure of AsyncHTTPClient or SwiftNIO the way `URLSessionTransport` classifies
  /// `URLError`s: deadlines and timeouts are ``Kind-swift.struct/timeout``, a refused connection or an unknown host
  /// ``Kind-swift.struct/noConnection``, a connection the server closed or reset ``Kind-swift.struct/connectionLost``,
  /// cancellation ``Kind-swift.struct/cancelled``, and TLS failures ``Kind-swift.struct/tls``; on Apple platforms the
  /// same holds for the `NWError`s of Network.framework.
  init(asyncHTTPClientFailure error: any Error, request: HTTPRequest?) {
    if let courierError = error as? CourierError {
      self = courierError  // the client adds the request and response head it knows of
      return
    }
    let kind = Self.kind(of: error) ?? .transport
    var detail = kind == .cancelled ? "The request was cancelled" : "AsyncHTTPClient failed: \(error)"
    if kind == .tls {
      let host = TLSFailure.host(of: request)
      detail = "The secure connection to \(host) failed: \(Self.failedCheck(error, host: host)) (\(error))"
    }
    self.init(kind, detail, request: request, underlyingError: error)
  }

  /// Which check of the TLS handshake `error` reports, in the words every transport uses (see `TLSFailure`).
  ///
  /// SwiftNIO SSL reports every failed chain verification as `CERTIFICATE_VERIFY_FAILED`, without saying whether
  /// the root was unknown, the certificate self-signed, expired or not yet valid: the words list all four then.
  static func failedCheck(_ error: any Error, host: String) -> String {
    if let check = networkFrameworkFailure(in: error)?.failedCheck(host: host) { return check }
    return (TLSFailure(message: String(reflecting: error)) ?? .handshake).words(host: host)
  }

  /// The kind of `error`, or `nil` when it is none Courier knows.
  ///
  /// Errors from modules this target does not import (NIOPosix's `NIOConnectionError`, which wraps the failure of
  /// each address tried) are searched for the NIOCore errors they carry, up to a few levels deep.
  static func kind(of error: any Error, depth: Int = 0) -> Kind? {
    if error is CancellationError { return .cancelled }
    if let failure = NetworkFrameworkFailure(error) { return failure.kind }
    if let error = error as? HTTPClientError { return kind(of: error) }
    if let error = error as? IOError { return kind(errno: error.errnoCode) }
    if let error = error as? ChannelError { return kind(of: error) }
    if error is SocketAddressError.UnknownHost { return .noConnection }
    // The connection closed before the body's end (a `Content-Length` not reached, a chunked body cut short).
    if let error = error as? HTTPParserError, error == .invalidEOFState { return .connectionLost }
    let typeName = String(reflecting: type(of: error))
    if typeName.hasPrefix("NIOSSL.") { return .tls }
    if let kind = kind(networkFrameworkErrorNamed: typeName) { return kind }
    guard depth < 4 else { return nil }
    for nested in nestedErrors(in: error) {
      if let kind = kind(of: nested, depth: depth + 1) { return kind }
    }
    return nil
  }

  private static func kind(of error: HTTPClientError) -> Kind? {
    switch error {
    case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout,
      .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
      return .timeout
    case .cancelled, .requestStreamCancelled:
      return .cancelled
    case .remoteConnectionClosed, .uncleanShutdown:
      return .connectionLost
    case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath:
      return .invalidURL
    case .bodyLengthMismatch, .traceRequestWithBody, .identityCodingIncorrectlyPresent:
      return .invalidRequest
    default:
      return nil
    }
  }

  private static func kind(of error: ChannelError) -> Kind? {
    switch error {
    case .connectTimeout: return .timeout
    case .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed, .eof: return .connectionLost
    default: return nil
    }
  }

  /// The Network.framework failure `error` is or carries, up to a few levels deep.
  static func networkFrameworkFailure(in error: any Error, depth: Int = 0) -> NetworkFrameworkFailure? {
    if let failure = NetworkFrameworkFailure(error) { return failure }
    guard depth < 4 else { return nil }
    return nestedErrors(in: error).lazy.compactMap { networkFrameworkFailure(in: $0, depth: depth + 1) }.first
  }

  static func kind(errno code: CInt) -> Kind? {
    switch code {
    case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EHOSTDOWN, ENETDOWN, EADDRNOTAVAIL: return .noConnection
    case ECONNRESET, ECONNABORTED, EPIPE, ENOTCONN: return .connectionLost
    case ETIMEDOUT: return .timeout
    default: return nil
    }
  }

  /// The errors `error` stores, directly or inside arrays and structs it stores.
  private static func nestedErrors(in error: any Error) -> [any Error] {
    var found: [any Error] = []
    func collect(_ value: Any, level: Int) {
      for child in Mirror(reflecting: value).children {
        if let nested = child.value as? any Error {
          found.append(nested)
        } else if level < 2 {
          collect(child.value, level: level + 1)
        }
      }
    }
    collect(error, level: 0)
    return found
  }
}
