import Foundation

/// One piece of a body: bytes built in memory, or a file read when sent (a multipart form's file parts, a file
/// body). A transport that reads files its own way (into its own buffers, without a copy) sends the segments of a
/// body that has them (``BodyStream/segments``) instead of iterating its chunks.
package enum BodySegment: Sendable {
  /// Bytes in memory.
  case data(Data)
  /// The whole of a file, of the size it had when the body was made (a file that changes size while it is sent
  /// fails the request).
  case file(URL, size: Int64)

  /// The segment's length in bytes.
  package var length: Int64 {
    switch self {
    case .data(let data): return Int64(data.count)
    case .file(_, let size): return size
    }
  }
}

/// The chunks of a multipart body, in order; files are read a chunk at a time.
struct MultipartStream: AsyncSequence, Sendable {
  typealias Element = Data
  let segments: [BodySegment]
  var chunkSize = 256 * 1024

  /// What comes after segment `index`: the next non-empty bytes in memory, a file to read, or the end.
  enum Step {
    case data(Data)
    case file(URL, size: Int64)
    case end
  }

  /// The step after segment `index`, moving `index` past it; synchronous, so a body of bytes in memory alone can be
  /// read without a task (the fuzzer does). The async iterator reads through it.
  func step(from index: inout Int) -> Step {
    while index < segments.count {
      let segment = segments[index]
      index += 1
      switch segment {
      case .data(let data):
        if !data.isEmpty { return .data(data) }
      case .file(let url, let size):
        return .file(url, size: size)
      }
    }
    return .end
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    let stream: MultipartStream
    var index = 0
    var file: FileChunks.AsyncIterator?

    mutating func next() async throws -> Data? {
      while true {
        if let current = file {
          if let chunk = try await current.next() { return chunk }
          file = nil
        }
        switch stream.step(from: &index) {
        case .data(let data):
          return data
        case .file(let url, let size):
          file = FileChunks(url: url, expectedSize: size, chunkSize: stream.chunkSize).makeAsyncIterator()
        case .end:
          return nil
        }
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(stream: self) }
}
