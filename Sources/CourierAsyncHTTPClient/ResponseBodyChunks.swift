import AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore

/// An AsyncHTTPClient response body as the `Data` chunks of a `BodyStream`.
///
/// Failures while reading are classified like the request's (a dropped connection is
/// `CourierError.Kind.connectionLost`) and keep the request and response head. A body cut
/// short because the reading task was cancelled throws `CourierError.Kind.cancelled` instead
/// of ending early, so a cancelled download is never mistaken for a complete one.
struct ResponseBodyChunks: AsyncSequence, Sendable {
  typealias Element = Data

  let body: HTTPClientResponse.Body
  let request: HTTPRequest
  let response: HTTPResponse

  init(_ body: HTTPClientResponse.Body, request: HTTPRequest, response: HTTPResponse) {
    self.body = body
    self.request = request
    self.response = response
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    var buffers: HTTPClientResponse.Body.AsyncIterator
    let request: HTTPRequest
    let response: HTTPResponse

    mutating func next() async throws -> Data? {
      let buffer: ByteBuffer?
      do {
        buffer = try await buffers.next()
      } catch {
        throw failure(error)
      }
      guard let buffer else {
        if Task.isCancelled { throw failure(CancellationError()) }
        return nil
      }
      return Self.data(sharing: buffer)
    }

    /// The buffer's bytes as `Data`: copied when small, shared without a copy when large (the `Data` keeps the
    /// buffer's storage alive until it is released), so a streamed download is not copied a second time.
    static func data(sharing buffer: ByteBuffer) -> Data {
      guard buffer.readableBytes >= 16 * 1024 else { return buffer.withUnsafeReadableBytes { Data($0) } }
      return buffer.withUnsafeReadableBytes { bytes in
        Data(
          bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: bytes.count,
          deallocator: .custom { _, _ in withExtendedLifetime(buffer) {} })
      }
    }

    private func failure(_ error: any Error) -> CourierError {
      let failure = CourierError(asyncHTTPClientFailure: error, request: request)
      return CourierError(
        failure.kind, failure.detail, request: failure.request ?? request, response: failure.response ?? response,
        body: failure.body, underlyingError: failure.underlyingError)
    }
  }

  /// Reads the whole body into one `Data`, failing as iteration would.
  func collect() async throws -> Data {
    var buffers = makeAsyncIterator()
    guard var data = try await buffers.next() else { return Data() }
    while let more = try await buffers.next() { data.append(more) }
    return data
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(buffers: body.makeAsyncIterator(), request: request, response: response)
  }
}
