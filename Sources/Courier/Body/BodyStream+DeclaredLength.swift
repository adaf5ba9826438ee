import Foundation

extension BodyStream {
  /// This body, refusing with ``CourierError/Kind-swift.struct/invalidRequest`` a stream whose bytes disagree with
  /// its declared ``length``: too few when the stream ends, too many as soon as they pass it, in either case before
  /// the transport has the whole request to send. Buffers and files (whose length is their size) are returned as
  /// they are.
  func checkingDeclaredLength() -> BodyStream {
    guard let length, case .stream = storage, file == nil, segments == nil else { return self }
    var base = self
    base.progress = nil
    var checked = BodyStream(
      DeclaredLengthChunks(base: base, declared: length), length: length, isRepeatable: isRepeatable)
    checked.progress = progress
    return checked
  }
}

/// The chunks of a body with a declared length, counted: an iteration throws instead of ending short, or of passing
/// the declared length.
struct DeclaredLengthChunks: AsyncSequence, Sendable {
  typealias Element = Data
  let base: BodyStream
  let declared: Int64

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: BodyStream.AsyncIterator
    let declared: Int64
    var count: Int64 = 0

    mutating func next() async throws -> Data? {
      guard let chunk = try await base.next() else {
        guard count == declared else { throw DeclaredLengthChunks.mismatch(declared, had: "\(count)") }
        return nil
      }
      count += Int64(chunk.count)
      guard count <= declared else { throw DeclaredLengthChunks.mismatch(declared, had: "at least \(count)") }
      return chunk
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: base.makeAsyncIterator(), declared: declared)
  }

  static func mismatch(_ declared: Int64, had: String) -> CourierError {
    CourierError(
      .invalidRequest,
      "The request body's length disagrees with its bytes: declared \(declared) bytes, the body had \(had)")
  }
}
