import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file that closes itself; reads fill caller-provided memory, so no chunk is copied twice.
final class OpenFile {
  let descriptor: CInt

  init(path: String) throws {
    descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw BenchmarkFailure("cannot open \(path)") }
  }

  deinit { close(descriptor) }

  /// Reads up to `count` bytes into `buffer`; 0 at the end of the file.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    while true {
      let result = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      if result >= 0 { return result }
      if errno != EINTR { throw BenchmarkFailure("read failed: errno \(errno)") }
    }
  }
}

/// A file as `ByteBuffer` chunks, read straight into each buffer, for raw AsyncHTTPClient.
struct FileByteBuffers: AsyncSequence, Sendable {
  typealias Element = ByteBuffer
  let path: String
  let chunkSize: Int

  struct AsyncIterator: AsyncIteratorProtocol {
    let file: OpenFile
    let chunkSize: Int
    let allocator = ByteBufferAllocator()

    mutating func next() async throws -> ByteBuffer? {
      var buffer = allocator.buffer(capacity: chunkSize)
      let file = file
      let chunkSize = chunkSize
      let read = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunkSize) { pointer in
        try file.read(into: UnsafeMutableRawBufferPointer(rebasing: pointer[..<chunkSize]))
      }
      return read > 0 ? buffer : nil
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    // swift-format-ignore: NeverUseForceTry
    AsyncIterator(file: try! OpenFile(path: path), chunkSize: chunkSize)
  }
}

/// A hand-written one-part multipart body: preamble, the file's buffers, closing boundary.
struct MultipartByteBuffers: AsyncSequence, Sendable {
  typealias Element = ByteBuffer
  let preamble: ByteBuffer
  let file: FileByteBuffers
  let epilogue: ByteBuffer

  struct AsyncIterator: AsyncIteratorProtocol {
    var preamble: ByteBuffer?
    var file: FileByteBuffers.AsyncIterator?
    var epilogue: ByteBuffer?

    mutating func next() async throws -> ByteBuffer? {
      if let buffer = preamble {
        preamble = nil
        return buffer
      }
      if let chunk = try await file?.next() { return chunk }
      file = nil
      defer { epilogue = nil }
      return epilogue
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(preamble: preamble, file: file.makeAsyncIterator(), epilogue: epilogue)
  }
}
