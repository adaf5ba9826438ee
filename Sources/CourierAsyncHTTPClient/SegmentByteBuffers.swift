import Courier
import Foundation
import NIOCore
import _NIOFileSystem

/// A body made of bytes in memory and whole files (a file body, a multipart form) as the `ByteBuffer`s
/// AsyncHTTPClient writes: files are read with NIO's file system straight into buffers of `chunkLength` bytes, so
/// no file byte is copied on its way to the connection.
///
/// Each iteration opens the files again (Courier sends a body again for a redirect or a retry by making a new
/// request from it). A file whose size changed since the body was made fails the request with
/// `CourierError.Kind.invalidRequest`, as the body's own chunks do.
struct SegmentByteBuffers: AsyncSequence, Sendable {
  typealias Element = ByteBuffer

  /// The size of the buffers files are read into. NIO's file system reads up to eight ahead, so larger buffers cost
  /// memory (1 MiB buffers: 80–110 MiB peak for a 1 GiB upload) without sending faster; at 128 KiB it stays near
  /// 56 MiB.
  static let chunkLength = 128 * 1024

  let segments: [BodySegment]
  let body: HTTPBody
  let requestSent: (@Sendable () -> Void)?

  struct AsyncIterator: AsyncIteratorProtocol {
    let segments: [BodySegment]
    var index = 0
    var file: OpenedFile?
    var requestSent: (@Sendable () -> Void)?
    let report: (@Sendable (Int) -> Void)?

    mutating func next() async throws -> ByteBuffer? {
      if let sent = requestSent {
        requestSent = nil
        sent()
      }
      while true {
        if let current = file {
          if let buffer = try await current.next() {
            report?(buffer.readableBytes)
            return buffer
          }
          file = nil
          continue
        }
        guard index < segments.count else { return nil }
        let segment = segments[index]
        index += 1
        switch segment {
        case .data(let data):
          guard !data.isEmpty else { continue }
          report?(data.count)
          return ByteBuffer(bytes: data)
        case .file(let url, let size):
          file = try await OpenedFile(url: url, expectedSize: size)
        }
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(segments: segments, requestSent: requestSent, report: body.startReporting())
  }
}

/// A file open for reading, read a buffer at a time; closed when read to its end, or when dropped before that.
/// Only the iterator that opened it uses it.
final class OpenedFile {
  let url: URL
  let expectedSize: Int64
  private let handle: ReadFileHandle
  private var chunks: FileChunks.AsyncIterator
  private var read: Int64 = 0
  private var open = true

  init(url: URL, expectedSize: Int64) async throws {
    self.url = url
    self.expectedSize = expectedSize
    do {
      handle = try await FileSystem.shared.openFile(forReadingAt: FilePath(url.path), options: .init())
    } catch {
      throw CourierError(.invalidRequest, "The file \(url.path) could not be opened", underlyingError: error)
    }
    // A bounded range reads with `pread` (no shared offset); one byte past the size shows a file that grew.
    chunks = handle.readChunks(
      in: 0..<(expectedSize + 1), chunkLength: .bytes(Int64(SegmentByteBuffers.chunkLength))
    ).makeAsyncIterator()
  }

  deinit {
    // Dropped before its end (a cancelled or failed request): give the descriptor back at once.
    if open { try? handle.detachUnsafeFileDescriptor().close() }
  }

  /// The next buffer, or `nil` at the end of the file (which closes it).
  func next() async throws -> ByteBuffer? {
    let buffer: ByteBuffer?
    do {
      buffer = try await chunks.next()
    } catch {
      throw CourierError(.invalidRequest, "The file \(url.path) could not be read", underlyingError: error)
    }
    guard let buffer else {
      do {
        try await handle.close()
      } catch {
        // Closing could not run (its thread pool refused it): give the descriptor back here.
        try? handle.detachUnsafeFileDescriptor().close()
      }
      open = false
      guard read == expectedSize else {
        throw CourierError(
          .invalidRequest,
          "The file \(url.path) changed size while it was sent (\(read) of \(expectedSize) bytes)")
      }
      return nil
    }
    read += Int64(buffer.readableBytes)
    guard read <= expectedSize else {
      throw CourierError(.invalidRequest, "The file \(url.path) grew while it was sent")
    }
    return buffer
  }
}
