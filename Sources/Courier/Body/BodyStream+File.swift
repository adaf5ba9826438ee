import Foundation

extension BodyStream {
  /// A body streamed from a file a chunk at a time, with its length known up front, so transports send
  /// `Content-Length` and the file never sits in memory. Every iteration reopens the file, so the request can be
  /// retried.
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/invalidRequest`` when the file is missing or unreadable, before
  ///   anything is sent.
  public static func file(at url: URL, chunkSize: Int = 256 * 1024) throws -> BodyStream {
    let size = try FileChunks.size(of: url)
    var body = BodyStream(
      FileChunks(url: url, expectedSize: size, chunkSize: chunkSize), length: size, isRepeatable: true)
    body.file = url
    body.segments = [.file(url, size: size)]
    return body
  }
}

/// The chunks of a file, read on demand; throws if the file's size changes while it is read.
struct FileChunks: AsyncSequence, Sendable {
  typealias Element = Data
  let url: URL
  let expectedSize: Int64
  let chunkSize: Int

  /// The size of a readable regular file, or a typed error naming the problem.
  static func size(of url: URL) throws -> Int64 {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw CourierError(.invalidRequest, "The file \(url.path) does not exist")
    }
    guard !isDirectory.boolValue else { throw CourierError(.invalidRequest, "\(url.path) is a directory, not a file") }
    guard FileManager.default.isReadableFile(atPath: url.path) else {
      throw CourierError(.invalidRequest, "The file \(url.path) is not readable")
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    guard let size = (attributes?[.size] as? NSNumber)?.int64Value else {
      throw CourierError(.invalidRequest, "The size of \(url.path) could not be read")
    }
    return size
  }

  final class AsyncIterator: AsyncIteratorProtocol {
    let source: FileChunks
    var handle: FileHandle?
    var read: Int64 = 0
    var finished = false

    init(source: FileChunks) { self.source = source }

    deinit { try? handle?.close() }

    func next() async throws -> Data? {
      guard !finished else { return nil }
      if handle == nil {
        do {
          handle = try FileHandle(forReadingFrom: source.url)
        } catch {
          throw CourierError(.invalidRequest, "The file \(source.url.path) could not be opened", underlyingError: error)
        }
      }
      let chunk = try handle?.read(upToCount: source.chunkSize) ?? Data()
      if chunk.isEmpty {
        finished = true
        try? handle?.close()
        handle = nil
        guard read == source.expectedSize else {
          throw CourierError(
            .invalidRequest,
            "The file \(source.url.path) changed size while it was sent (\(read) of \(source.expectedSize) bytes)")
        }
        return nil
      }
      read += Int64(chunk.count)
      guard read <= source.expectedSize else {
        throw CourierError(.invalidRequest, "The file \(source.url.path) grew while it was sent")
      }
      return chunk
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}
