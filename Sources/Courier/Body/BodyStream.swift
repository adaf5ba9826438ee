import Foundation

/// A request or response body: a sequence of byte chunks with a known or unknown length.
///
/// A body is either buffered (one `Data`, the common case for JSON) or a stream of chunks, so that a large upload
/// or download never has to sit in memory. Iterate it with `for try await chunk in body`, or gather it with
/// ``collect(upTo:)``.
///
/// ```swift
/// let small = BodyStream(Data("hello".utf8))
/// let streamed = BodyStream(chunks, length: fileSize)
/// ```
public struct BodyStream: Sendable {
  enum Storage: Sendable {
    case buffer(Data)
    case stream(@Sendable () -> ChunkIterator)
  }

  let storage: Storage
  /// The number of bytes in the body, when known up front; `nil` when it is known only at the stream's end (sent
  /// with chunked transfer encoding).
  public let length: Int64?
  /// Whether the body can be iterated more than once, every iteration starting again from the first byte (a buffer,
  /// a file); `false` for a live stream. Only a repeatable body can be retried, replayed after a token refresh, or
  /// sent again to a redirect's target.
  public let isRepeatable: Bool
  /// The file the whole body is read from, when it is one (URLSession uploads it directly).
  var file: URL?
  /// What a streamed body is made of, when it is bytes in memory and whole files (a file body, a multipart form):
  /// a transport may read the files itself, into its own buffers, rather than take the body's `Data` chunks. It
  /// must then report the bytes it sends through ``startReporting()``.
  package var segments: [BodySegment]?
  /// Counts the bytes a transport takes from the body, for upload progress.
  var progress: ProgressReporter?

  /// An empty body.
  public init() {
    self.init(Data())
  }

  /// A buffered body.
  public init(_ data: Data) {
    storage = .buffer(data)
    length = Int64(data.count)
    isRepeatable = true
  }

  /// A streamed body from any async sequence of chunks.
  ///
  /// - Parameters:
  ///   - chunks: The chunks, in order.
  ///   - length: The total length when known; a known length lets transports send `Content-Length`.
  ///   - isRepeatable: `true` only when every `makeAsyncIterator()` starts again from the first byte.
  public init<Chunks: AsyncSequence & Sendable>(
    _ chunks: Chunks,
    length: Int64? = nil,
    isRepeatable: Bool = false
  ) where Chunks.Element == Data {
    storage = .stream {
      var iterator = chunks.makeAsyncIterator()
      return ChunkIterator { try await iterator.next() }
    }
    self.length = length
    self.isRepeatable = isRepeatable
  }

  /// The bytes of a buffered body, without waiting; `nil` for a streamed body.
  public var bufferedData: Data? {
    if case .buffer(let data) = storage { return data }
    return nil
  }

  /// Reads the whole body into memory.
  ///
  /// - Parameter limit: The largest body accepted; a larger one throws
  ///   ``CourierError/Kind-swift.struct/responseTooLarge`` instead of exhausting memory: at once when the body's
  ///   length says so, else as soon as the bytes read pass the limit.
  public func collect(upTo limit: Int = .max) async throws -> Data {
    if let count = length, count > limit { throw Self.tooLarge(limit, length: count) }
    if case .buffer(let data) = storage, progress == nil {
      guard data.count <= limit else { throw Self.tooLarge(limit) }
      return data
    }
    var result = Data()
    if let count = length, count <= limit { result.reserveCapacity(Int(count)) }
    for try await chunk in self {
      guard result.count + chunk.count <= limit else { throw Self.tooLarge(limit) }
      result.append(chunk)
    }
    return result
  }

  private static func tooLarge(_ limit: Int, length: Int64? = nil) -> CourierError {
    let size = length.map { "\($0) bytes" } ?? "more than \(limit) bytes"
    return CourierError(.responseTooLarge, "The body (\(size)) is larger than the limit of \(limit) bytes")
  }
}

extension BodyStream: AsyncSequence {
  /// A chunk of bytes.
  public typealias Element = Data

  /// Iterates the chunks of a body.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var pending: Data?
    var source: ChunkIterator?
    var progress: ProgressReporter?

    /// The next chunk, or `nil` at the end of the body.
    public mutating func next() async throws -> Data? {
      let chunk = try await nextChunk()
      if let chunk { progress?.advance(by: chunk.count) }
      return chunk
    }

    private mutating func nextChunk() async throws -> Data? {
      if let chunk = pending {
        pending = nil
        return chunk
      }
      guard let source else { return nil }
      while let chunk = try await source.next() {
        if !chunk.isEmpty { return chunk }
      }
      self.source = nil
      return nil
    }
  }

  /// Starts an iteration over the body's chunks.
  public func makeAsyncIterator() -> AsyncIterator {
    var iterator: AsyncIterator
    switch storage {
    case .buffer(let data): iterator = AsyncIterator(pending: data.isEmpty ? nil : data, source: nil)
    case .stream(let make): iterator = AsyncIterator(pending: nil, source: make())
    }
    if let progress {
      progress.start(total: length)
      iterator.progress = progress
    }
    return iterator
  }
}

extension BodyStream {
  /// For a transport that sends the body's ``segments`` rather than its chunks: starts an attempt of the body's
  /// upload progress and returns what to call with the size of each piece sent, or `nil` when nobody watches.
  package func startReporting() -> (@Sendable (Int) -> Void)? {
    guard let progress else { return nil }
    progress.start(total: length)
    return { progress.advance(by: $0) }
  }

  /// This body, touching `activity` as each chunk arrives (for the idle timeout).
  func touching(_ activity: Deadline.Activity) -> BodyStream {
    guard bufferedData == nil else { return self }
    var copy = BodyStream(TouchingChunks(base: self, activity: activity), length: length)
    copy.progress = progress
    return copy
  }

  /// The same body, reporting the bytes taken from it to `reporter`.
  func reporting(to reporter: ProgressReporter?) -> BodyStream {
    var copy = self
    copy.progress = reporter
    return copy
  }
}

/// A type-erased source of chunks; a class so the iterator it wraps can be advanced through a copy.
final class ChunkIterator {
  private let nextChunk: () async throws -> Data?

  init(_ next: @escaping () async throws -> Data?) { nextChunk = next }

  func next() async throws -> Data? { try await nextChunk() }
}

/// The chunks of a body, touching an ``Deadline/Activity`` as each arrives.
struct TouchingChunks: AsyncSequence, Sendable {
  typealias Element = Data
  let base: BodyStream
  let activity: Deadline.Activity

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: BodyStream.AsyncIterator
    let activity: Deadline.Activity

    mutating func next() async throws -> Data? {
      let chunk = try await base.next()
      activity.touch()
      return chunk
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: base.makeAsyncIterator(), activity: activity)
  }
}
