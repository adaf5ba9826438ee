import Courier
import Foundation
import NIOCore
import NIOPosix

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A body made of bytes in memory and whole files (a file body, a multipart form) as the `ByteBuffer`s
/// AsyncHTTPClient writes: files are read with `pread` on NIO's blocking-I/O thread pool straight into buffers of
/// `chunkLength` bytes, so no file byte is copied on its way to the connection.
///
/// Each iteration opens the files again (Courier sends a body again for a redirect or a retry by making a new
/// request from it). A file whose size changed since the body was made fails the request with
/// `CourierError.Kind.invalidRequest`, as the body's own chunks do.
struct SegmentByteBuffers: AsyncSequence, Sendable {
  typealias Element = ByteBuffer

  /// The size of the buffers files are read into, one at a time with the next one read ahead. Each buffer costs
  /// AsyncHTTPClient, the thread pool and this sequence the same whatever its size, so small buffers cost CPU
  /// (Benchmarks/RESULTS.md, "Upload buffers", has the figures). Memory stays bounded because the body waits for the
  /// event loops after each MiB (see `EventLoopQueues`).
  static let chunkLength = 1024 * 1024

  let segments: [BodySegment]
  let body: BodyStream
  let requestSent: (@Sendable () -> Void)?
  let queues: EventLoopQueues

  struct AsyncIterator: AsyncIteratorProtocol {
    let segments: [BodySegment]
    var index = 0
    var file: OpenedFile?
    var requestSent: (@Sendable () -> Void)?
    let report: (@Sendable (Int) -> Void)?
    var pace: EventLoopQueues.Pace

    mutating func next() async throws -> ByteBuffer? {
      if let sent = requestSent {
        requestSent = nil
        sent()
      }
      await pace.waitIfDue()
      while true {
        if let current = file {
          if let buffer = try await current.next() {
            report?(buffer.readableBytes)
            pace.handedOver(buffer.readableBytes)
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
          pace.handedOver(data.count)
          return ByteBuffer(bytes: data)
        case .file(let url, let size):
          file = try await OpenedFile(url: url, expectedSize: size)
        }
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      segments: segments, requestSent: requestSent, report: body.startReporting(),
      pace: EventLoopQueues.Pace(queues))
  }
}

/// A file open for reading, read a buffer at a time with the next one already being read; closed when read to its
/// end, or when dropped before that. Only the iterator that opened it uses it.
///
/// Opening, reading and closing run on `NIOThreadPool.singleton`, NIO's pool for blocking file I/O (the one
/// AsyncHTTPClient's file downloads and `NonBlockingFileIO` use), through POSIX `open`, `pread` and `close`.
final class OpenedFile {
  let url: URL
  let expectedSize: Int64
  private let descriptor: FileDescriptor
  /// The read of the next buffer, started when the previous one was handed on, so reading the file overlaps sending
  /// it; at most two buffers are in memory.
  private var pending: Task<ByteBuffer, any Error>?
  /// Where the next read starts.
  private var offset: Int64 = 0
  private var read: Int64 = 0
  private var open = true

  init(url: URL, expectedSize: Int64) async throws {
    self.url = url
    self.expectedSize = expectedSize
    do {
      let path = url.path
      descriptor = try await NIOThreadPool.singleton.runIfActive { try FileDescriptor.open(path) }
    } catch {
      throw CourierError(.invalidRequest, "The file \(url.path) could not be opened", underlyingError: error)
    }
  }

  deinit {
    // Dropped before its end (a cancelled or failed request): give the descriptor back at once, or as soon as the
    // read in flight ends (closing under it could hand its descriptor number to another file mid-read).
    guard open else { return }
    if let pending {
      let descriptor = descriptor
      pending.cancel()
      Task {
        _ = try? await pending.value
        descriptor.close()
      }
    } else {
      descriptor.close()
    }
  }

  /// Starts reading the buffer at `offset`: up to ``SegmentByteBuffers/chunkLength`` bytes, never past one byte
  /// beyond the expected size (that byte shows a file that grew).
  @discardableResult
  private func startRead() -> Task<ByteBuffer, any Error> {
    let wanted = Int(min(Int64(SegmentByteBuffers.chunkLength), expectedSize + 1 - offset))
    let start = offset
    offset += Int64(wanted)
    let descriptor = descriptor
    let read = Task {
      try await NIOThreadPool.singleton.runIfActive { try descriptor.read(wanted, at: start) }
    }
    pending = read
    return read
  }

  /// The next buffer, or `nil` at the end of the file (which closes it).
  func next() async throws -> ByteBuffer? {
    let reading = pending ?? startRead()
    let buffer: ByteBuffer
    do {
      buffer = try await reading.value
    } catch {
      pending = nil
      throw CourierError(.invalidRequest, "The file \(url.path) could not be read", underlyingError: error)
    }
    pending = nil
    guard buffer.readableBytes > 0 else {
      descriptor.close()
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
    startRead()
    return buffer
  }
}

/// A POSIX file descriptor open for reading. Reads are positioned (`pread`), so they never share a file offset.
struct FileDescriptor: Sendable {
  /// An `errno` from a call on the file.
  struct Failure: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var description: String { "\(call): \(String(cString: strerror(code))) (errno \(code))" }
  }

  let value: Int32

  /// Opens `path` for reading; blocks.
  static func open(_ path: String) throws -> FileDescriptor {
    while true {
      #if canImport(Darwin)
      let value = Darwin.open(path, O_RDONLY | O_CLOEXEC)
      #elseif canImport(Glibc)
      let value = Glibc.open(path, O_RDONLY | O_CLOEXEC)
      #else
      let value = Musl.open(path, O_RDONLY | O_CLOEXEC)
      #endif
      if value >= 0 { return FileDescriptor(value: value) }
      guard errno == EINTR else { throw Failure(call: "open", code: errno) }
    }
  }

  /// Up to `count` bytes from `offset` in a new buffer: fewer only at the end of the file; blocks.
  func read(_ count: Int, at offset: Int64) throws -> ByteBuffer {
    var buffer = ByteBufferAllocator().buffer(capacity: count)
    while buffer.readableBytes < count {
      let position = offset + Int64(buffer.readableBytes)
      let wanted = count - buffer.readableBytes
      var failure: Int32 = 0
      let got = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { bytes in
        let result = pread(value, bytes.baseAddress, wanted, off_t(position))
        if result < 0 { failure = errno }
        return max(result, 0)
      }
      if failure == EINTR { continue }
      if failure != 0 { throw Failure(call: "pread", code: failure) }
      if got == 0 { break }
    }
    return buffer
  }

  /// Closes the descriptor.
  func close() {
    #if canImport(Darwin)
    _ = Darwin.close(value)
    #elseif canImport(Glibc)
    _ = Glibc.close(value)
    #else
    _ = Musl.close(value)
    #endif
  }
}
